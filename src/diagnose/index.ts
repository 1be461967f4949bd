import { innermostCauses } from './cause.js'
import { evidenceLine } from './evidence.js'
import { completeFacts } from './facts.js'
import { normalizeFailure } from './normalize.js'
import { DEFAULT_REMEDIES, isRetryableWith, nextStepFor } from './remedies.js'
import { RULES } from './rules/index.js'
import { networkEvidence } from './network-evidence.js'
import { blameBehindRelay } from './relay-upstream.js'
import type { Diagnosis, Failure, NormalizedFailure, Remedy, Rule, RuleErrorHandler, RuleMatch } from './types.js'

function appliesTo(rule: Rule, tool: string | null): boolean {
  return rule.tools === 'any' || !tool || rule.tools.includes(tool)
}

function firstMatch(view: NormalizedFailure, rules: readonly Rule[], onRuleError?: RuleErrorHandler): { rule: Rule; match: RuleMatch } | undefined {
  for (const rule of rules) {
    let match
    try {
      match = rule.match(view)
    } catch (error) {
      // A broken rule must not break the run (thefuck's rule_failed): skip it; the loop reports it under --verbose.
      onRuleError?.(rule, error)
      continue
    }
    if (!match) continue
    // A missing package stops the retries and sends the person to check the name: only proof earns it.
    if (rule.category === 'package_not_found' && !match.facts?.absence) {
      onRuleError?.(rule, new Error('it called the package missing without proof (a 404 for the name, or a listing without it)'))
      continue
    }
    return { rule, match }
  }
  return undefined
}

/** pip repeats one error per retry with a new object address and counter: show each message once. */
function distinctLines(lines: string[]): string[] {
  const seen = new Set<string>()
  return lines.filter(line => {
    const shape = line.replace(/0x[0-9a-f]+/gi, '0x').replace(/\d+/g, '0')
    if (seen.has(shape)) return false
    seen.add(shape)
    return true
  })
}

/**
 * Explains a failure. Rules run in priority order (RULES' order), first on the innermost cause of each
 * `Caused by:` / `╰─▶` / chained-traceback chain, then on the whole output: a wrapper's words ("Failed to build",
 * "No solution found") never hide the cause they wrap. First match wins.
 */
export function diagnose(failure: Failure, rules: readonly Rule[] = RULES, onRuleError?: RuleErrorHandler): Diagnosis {
  return blameBehindRelay(diagnoseText(failure, rules, onRuleError), failure)
}

function diagnoseText(failure: Failure, rules: readonly Rule[], onRuleError?: RuleErrorHandler): Diagnosis {
  const normalized = normalizeFailure(failure)
  const applicable = rules.filter(rule => appliesTo(rule, failure.tool))
  const causes = innermostCauses(normalized)
  const views = causes.length ? [{ ...normalized, text: causes.join('\n'), lines: causes, fullText: normalized.text }, normalized] : [normalized]
  for (const view of views) {
    const found = firstMatch(view, applicable, onRuleError)
    if (!found) continue
    const { rule, match } = found
    const remedy = match.remedy ?? rule.remedy ?? DEFAULT_REMEDIES[rule.category]
    const facts = completeFacts(normalized, rule.category, match.evidence, match.facts)
    return {
      category: rule.category,
      ruleId: rule.id,
      // Name the host when the rule's own words do not: "could not be resolved" says little without it.
      summary: match.summary ?? (facts.host && !facts.hostRole?.includes('proxy') ? `${rule.summary} (${facts.host})` : rule.summary),
      evidence: distinctLines(match.evidence),
      facts,
      remedy,
      retryable: isRetryableWith(rule.category, remedy, facts),
      nextStep: nextStepFor(rule.category, remedy),
    }
  }
  return unrecognised(normalized)
}

/**
 * Decision first: a failure no rule explains still gets the right retry decision. With network evidence in its error
 * lines (a URL, a request or download that failed) it gets one try on another source; without, it is never retried
 * on a mirror (a mirror cannot fix a failure that never touched the network).
 */
function unrecognised(normalized: NormalizedFailure): Diagnosis {
  const network = networkEvidence(normalized)
  if (network.length) {
    const remedy: Remedy = { kind: 'switch-mirror', once: true }
    const facts = completeFacts(normalized, 'other', network)
    return { category: 'other', ruleId: 'unclassified-network', summary: 'The failure does not match any known cause, but it happened while talking to the network',
      evidence: distinctLines(network), facts, remedy, retryable: true, nextStep: nextStepFor('other', remedy) }
  }
  const lastLines = normalized.lines.filter(line => line.trim()).slice(-3).map(evidenceLine)
  const remedy = DEFAULT_REMEDIES.other
  return { category: 'other', ruleId: 'unclassified', summary: 'The failure does not match any known cause', evidence: lastLines,
    facts: {}, remedy, retryable: false, nextStep: nextStepFor('other', remedy) }
}

export { DIAGNOSED_TOOLS, guessTool, toolNamed } from './tool-guess.js'
export type { Diagnosis, Failure, Rule, Category, Remedy, Facts } from './types.js'

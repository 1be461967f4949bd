import { normalizeFailure } from './normalize.js'
import { DEFAULT_REMEDIES, isRetryable } from './remedies.js'
import { RULES } from './rules/index.js'
import type { Diagnosis, Failure, Rule } from './types.js'

export type RuleErrorHandler = (rule: Rule, error: unknown) => void

/** Rules in priority order (RULES' order): tool-specific before `any-*`, narrow before broad. First match wins. */
export function diagnose(failure: Failure, rules: readonly Rule[] = RULES, onRuleError?: RuleErrorHandler): Diagnosis {
  const normalized = normalizeFailure(failure)
  for (const rule of rules) {
    if (rule.tools !== 'any' && failure.tool && !rule.tools.includes(failure.tool)) continue
    let match
    try {
      match = rule.match(normalized)
    } catch (error) {
      // A broken rule must not break the run (thefuck's rule_failed): skip it, report under --debug.
      onRuleError?.(rule, error)
      continue
    }
    if (!match) continue
    const remedy = rule.remedy ?? DEFAULT_REMEDIES[rule.category]
    return {
      category: rule.category,
      ruleId: rule.id,
      summary: match.summary ?? rule.summary,
      evidence: match.evidence,
      facts: match.facts ?? {},
      remedy,
      retryable: isRetryable(rule.category),
      hint: remedy.kind === 'give-up' ? remedy.hint : undefined,
    }
  }
  const lastLines = normalized.lines.filter(line => line.trim()).slice(-3).map(line => line.trim())
  const remedy = DEFAULT_REMEDIES.other
  return { category: 'other', ruleId: 'unclassified', summary: 'The failure does not match any known cause', evidence: lastLines,
    facts: {}, remedy, retryable: false, hint: remedy.kind === 'give-up' ? remedy.hint : undefined }
}

export type { Diagnosis, Failure, Rule, Category, Remedy, Facts } from './types.js'

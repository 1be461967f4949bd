/**
 * The one place that says which transcripts of README.md and docs/ are illustrative rather than produced by a real
 * run (test/support/transcripts/scenarios.ts), and why: each is marked `<!-- transcript: illustrative -->` in its
 * document, and test/e2e/transcripts.e2e.test.ts checks that the marks and this list agree. `starts` is the block's
 * first line.
 */
export const ILLUSTRATIVE: { file: string; starts: string; why: string }[] = [
  { file: 'README.md', starts: '$ resilient pip install torch',
    why: 'a 900 MB download from pypi.org resumed from tuna: this project is built on machines with no access to PyPI; the relay\'s resume itself is tested against local servers (test/e2e/relay-run.e2e.test.ts)' },
  { file: 'docs/mirrors.md', starts: '… pypi.org, aliyun: failing from this network (resolver 10.0.0.1), so tried last',
    why: 'one line of --verbose about a breaker that months of failures opened; the line\'s wording is tested in test/unit/state' },
  { file: 'docs/relay.md', starts: '! pypi.org went silent: 3 pages (which versions exist) came from mirror tuna instead; its copies may lag behind pypi.org',
    why: 'one line about pypi.org and tuna, which this machine cannot reach; the same line about local servers is checked in test/e2e/relay-authority.e2e.test.ts' },
  { file: 'docs/run.md', starts: '$ resilient run -- .venv/bin/python app.py',
    why: 'PyYAML and python-dateutil from PyPI, and a question answered in a terminal; the same flow runs against a local index in test/e2e/run-python-flow.e2e.test.ts' },
  { file: 'docs/stall-detection.md', starts: '… pypi.org has sent nothing for 15 s; pip keeps waiting by its own settings (--timeout 15, --retries 5: up to about 1.5 min in all); nothing else is planned: a mirror would help (`resilient mirrors list`, `--mirror <name>`), or check the network or proxy (`resilient mirrors test`)',
    why: 'one line about pypi.org, which this machine cannot reach; its wording against local servers is checked in test/e2e/silence-notice.e2e.test.ts' },
  { file: 'docs/stall-detection.md', starts: '↓ 243 kB/s over the last 5 s (1.5 MB in 10 s) from 127.0.0.1:33847',
    why: 'one line of --verbose: its figures are those of one moment of one download' },
]

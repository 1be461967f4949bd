import { linesMatching } from '../evidence.js'
import type { Rule } from '../types.js'

// conda's own Python cannot load its ssl module (OpenSSL DLLs missing from PATH on Windows, a broken base env):
// no certificate was ever checked, so neither a CA bundle nor a mirror helps (conda/conda#11795).
export const condaSslModuleMissing = {
  id: 'conda-ssl-module-missing',
  category: 'other',
  tools: ['conda', 'mamba'],
  summary: "conda's Python cannot load its SSL module, so it cannot open any HTTPS URL",
  match: failure => {
    const evidence = linesMatching(failure, /SSL module is not available|OpenSSL appears to be unavailable|ssl module in Python is not available|DLL load failed[^\n]{0,80}_ssl/)
    return evidence.length ? { evidence } : null
  },
  remedy: { kind: 'give-up', hint: 'Repair the conda installation: on Windows, run conda from the Anaconda Prompt (it puts Library\\bin with the OpenSSL DLLs on PATH) or copy libcrypto/libssl DLLs from Library\\bin to DLLs; elsewhere reinstall openssl in the base environment.' },
} satisfies Rule

import type { OptionSpec } from './args.js'

/**
 * The index options of the Python-family tools in every spelling each one's parser accepts: one table, read for the
 * command line, requirement files and pipx's `--pip-args`, instead of a list or a regex per adapter.
 */
export interface IndexFlags {
  /** Replaces the index: `--index-url`. */
  index: OptionSpec
  /** No index at all: `--no-index`. */
  noIndex: OptionSpec
  /** Names another requirements file whose options count too: `-r`, `-c`. */
  nested: OptionSpec
}

// Short options of pip install/download/wheel/index/list that take a value: in a cluster, what follows one is its value.
const PIP_VALUE_LETTERS = 'ifcreCtdw'

/**
 * pip's optparse (pip cli/cmdoptions.py, parser.py): unique prefixes of long names (`--ind`), `=` and separate
 * values, attached short values (`-iURL`), short clusters (`-qi URL`); the hidden `--pypi-url` alias. Requirement
 * file lines go through the same optparse parser (pip req_file.py `build_parser`), so every spelling counts there too.
 */
export const PIP_INDEX_FLAGS: IndexFlags = {
  index: { long: ['--index-url', '--pypi-url'], short: ['-i'], minPrefix: 5, takesValue: true, clusterValueLetters: PIP_VALUE_LETTERS },
  noIndex: { long: ['--no-index'], minPrefix: 6, takesValue: false },
  nested: { long: ['--requirement', '--constraint'], short: ['-r', '-c'], minPrefix: 9, takesValue: true, clusterValueLetters: PIP_VALUE_LETTERS },
}

/**
 * pip's options that add sources beside the index (pip cli/cmdoptions.py): `--ext` is the shortest unique prefix of
 * `--extra-index-url` (`--ex` is also `--exists-action`), `--fi` of `--find-links` (`--f` also `--force-reinstall`).
 */
export const PIP_BESIDE_FLAGS = {
  extraIndex: { long: ['--extra-index-url'], minPrefix: 5, takesValue: true },
  findLinks: { long: ['--find-links'], short: ['-f'], minPrefix: 4, takesValue: true, clusterValueLetters: PIP_VALUE_LETTERS },
} satisfies Record<string, OptionSpec>

/**
 * uv's own requirements.txt parser (uv-requirements-txt lib.rs) takes the full names only, with `=` or a space before
 * the value; its command line is clap's (UV_OPTIONS in uv-options.ts).
 */
export const UV_REQUIREMENT_FLAGS: IndexFlags = {
  index: { long: ['--index-url'], short: ['-i'], takesValue: true },
  noIndex: { long: ['--no-index'], takesValue: false },
  nested: { long: ['--requirement', '--constraint'], short: ['-r', '-c'], takesValue: true },
}

/** pipx's argparse (pipx main.py, allow_abbrev): unique prefixes, so `--ind` is `--index-url`. */
export const PIPX_INDEX_FLAG: OptionSpec = { long: ['--index-url'], short: ['-i'], minPrefix: 5, takesValue: true }

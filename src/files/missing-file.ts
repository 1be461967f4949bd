// Config readers fail closed on a file they cannot read, but a file that is simply not there (nor a folder on its
// path) is no setting at all: the one test for "not there", so every reader draws that line in the same place.

/** Whether a filesystem error says the file is not there: ENOENT, or ENOTDIR for a path through a regular file. */
export function isMissingFile(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return code === 'ENOENT' || code === 'ENOTDIR'
}

// Top-level names whose absence pip cannot fix, checked before any mapping.
// pipreqs maps several of them to PyPI shims (tkinter → future, builtins → pies2overrides), which is how Replit's
// guesser looped on `import builtins` (replit/upm#40).

export interface NameProblem {
  reason: string
  hint?: string
}

/** C extensions of the standard library and OS-level modules: a missing one means an OS package or a rebuild. */
const OS_MODULES: Record<string, string> = {
  tkinter: 'Debian/Ubuntu: apt install python3-tk; pyenv: install tk-dev and rebuild the Python.',
  _tkinter: 'Debian/Ubuntu: apt install python3-tk; pyenv: install tk-dev and rebuild the Python.',
  _ctypes: 'Install libffi-dev and rebuild the Python.',
  _sqlite3: 'Install libsqlite3-dev and rebuild the Python.',
  sqlite3: 'Install libsqlite3-dev and rebuild the Python.',
  _ssl: 'Install libssl-dev and rebuild the Python.',
  ssl: 'Install libssl-dev and rebuild the Python.',
  _bz2: 'Install libbz2-dev and rebuild the Python.',
  _lzma: 'Install liblzma-dev and rebuild the Python.',
  readline: 'Install libreadline-dev and rebuild the Python.',
  _curses: 'Install libncurses-dev and rebuild the Python.',
  _dbm: 'Install libgdbm-dev and rebuild the Python.',
  _uuid: 'Install uuid-dev and rebuild the Python.',
}

/** Removed from the standard library (PEP 594 in 3.13, PEP 632 and others in 3.12), with its PyPI redistribution. */
const REMOVED: Record<string, string | undefined> = {
  asynchat: 'pyasynchat', asyncore: 'pyasyncore', smtpd: 'standard-smtpd', imp: undefined, lib2to3: undefined, distutils: 'setuptools',
  aifc: 'standard-aifc', audioop: 'audioop-lts', cgi: 'legacy-cgi', cgitb: 'legacy-cgi', chunk: 'standard-chunk',
  crypt: 'standard-crypt', imghdr: 'standard-imghdr', mailcap: 'standard-mailcap', msilib: undefined, nis: undefined,
  nntplib: 'standard-nntplib', ossaudiodev: undefined, pipes: 'standard-pipes', sndhdr: 'standard-sndhdr',
  spwd: undefined, sunau: 'standard-sunau', telnetlib: 'standard-telnetlib', uu: 'standard-uu', xdrlib: 'standard-xdrlib',
}

/** Added to the standard library in a later Python than the one running, with the backport for older ones. */
const NEWER: Record<string, [version: string, backport: string]> = {
  tomllib: ['3.11', 'tomli (import tomli)'],
  zoneinfo: ['3.9', 'backports.zoneinfo'],
  graphlib: ['3.9', 'graphlib_backport'],
}

/** Python 2's standard library under the names Python 3 renamed or folded (PEP 3108), with today's name. */
const PYTHON2: Record<string, string> = {
  urllib2: 'urllib.request (and urllib.error)', urlparse: 'urllib.parse', ConfigParser: 'configparser', Queue: 'queue',
  StringIO: 'io (io.StringIO)', cStringIO: 'io (io.StringIO, io.BytesIO)', cPickle: 'pickle', HTMLParser: 'html.parser',
  httplib: 'http.client', Cookie: 'http.cookies', cookielib: 'http.cookiejar', SocketServer: 'socketserver',
  SimpleHTTPServer: 'http.server', BaseHTTPServer: 'http.server', CGIHTTPServer: 'http.server', Tkinter: 'tkinter',
  tkMessageBox: 'tkinter.messagebox', tkFileDialog: 'tkinter.filedialog', ttk: 'tkinter.ttk', __builtin__: 'builtins',
  thread: '_thread (or threading)', commands: 'subprocess', xmlrpclib: 'xmlrpc.client', SimpleXMLRPCServer: 'xmlrpc.server',
  anydbm: 'dbm', dumbdbm: 'dbm.dumb', gdbm: 'dbm.gnu', dbhash: 'dbm', whichdb: 'dbm', copy_reg: 'copyreg', htmlentitydefs: 'html.entities',
  robotparser: 'urllib.robotparser', UserDict: 'collections.UserDict', UserList: 'collections.UserList',
  UserString: 'collections.UserString', md5: 'hashlib', sha: 'hashlib', exceptions: 'builtins', repr: 'reprlib',
  dummy_thread: '_thread', markupbase: '_markupbase', sets: 'the built-in set', new: 'types', popen2: 'subprocess',
  mimetools: 'email', rfc822: 'email', mhlib: 'mailbox', HTMLgen: 'html', string_escape: 'codecs',
}

/** Names that are almost always the project's own modules: a failure means the wrong directory or PYTHONPATH. */
const LOCAL_NAMES = new Set(['src', 'test', 'tests', 'app', 'main', 'utils', 'util', 'helpers', 'lib', 'core', 'common',
  'config', 'settings', 'models', 'example', 'examples', 'demo', 'scripts', 'data', 'api', 'server', 'client'])

/** Why a missing top-level name is not a package to install, or undefined when it may be one. */
export function pythonNameProblem(top: string): NameProblem | undefined {
  if (Object.hasOwn(OS_MODULES, top)) return { reason: `"${top}" is part of Python itself, built only when the OS library it needs was present.`, hint: OS_MODULES[top] }
  if (Object.hasOwn(REMOVED, top)) {
    const replacement = REMOVED[top]
    return { reason: `"${top}" was removed from the standard library (Python 3.12/3.13).`, hint: replacement ? `Update the code, or install the redistribution yourself: pip install ${replacement}.` : 'Update the code (see the Python "What\'s New" for its replacement).' }
  }
  if (Object.hasOwn(PYTHON2, top)) {
    return { reason: `"${top}" is a Python 2 standard-library module; Python 3 calls it ${PYTHON2[top]}. No package should be installed for it.`, hint: `Change the import to the Python 3 name, or run the script with Python 2 if it was written for it.` }
  }
  if (Object.hasOwn(NEWER, top)) {
    const [version, backport] = NEWER[top]!
    return { reason: `"${top}" is in the standard library from Python ${version}; this Python is older.`, hint: `Use Python ${version} or later, or the backport ${backport}.` }
  }
  if (top.startsWith('_')) return { reason: `"${top}" is a private module: a broken install or a missing C extension, not a package to install.` }
  if (LOCAL_NAMES.has(top)) return { reason: `"${top}" is a name projects use for their own code, so this is most likely a path problem.`, hint: 'Run from the project root, or set PYTHONPATH, or install the project itself (pip install -e .).' }
  return undefined
}

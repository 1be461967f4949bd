import { lastJsonLine, runPython, type RunPython } from './python-probe.js'

// Every import of the script that this interpreter cannot find, read with `ast` as pipreqs does (pipreqs.py
// get_all_imports): the files are parsed, never run. The walk starts at the entry script and the file whose import
// failed, follows the project's own modules it finds beside them, and skips what is optional by construction: an
// import inside `try:` whose handler catches ImportError (pigar does the same), and one under `if TYPE_CHECKING:`.
// Relative imports are the project's own. At most 200 files.

const SCAN = `
import ast, importlib.machinery, importlib.util, json, os, sys
files, roots = json.loads(sys.argv[1]), json.loads(sys.argv[2])
CATCHES = ('ImportError', 'ModuleNotFoundError', 'Exception', 'BaseException')

def optional_handler(handler):
    kind = handler.type
    names = [kind] if not isinstance(kind, ast.Tuple) else list(kind.elts)
    return kind is None or any(getattr(n, 'id', getattr(n, 'attr', None)) in CATCHES for n in names)

def imports(tree, lines):
    found = []
    def visit(node, optional):
        if isinstance(node, ast.Try) and any(optional_handler(h) for h in node.handlers):
            for child in node.body: visit(child, True)
            for child in node.handlers + node.orelse + node.finalbody: visit(child, optional)
            return
        if isinstance(node, ast.If) and 'TYPE_CHECKING' in ast.dump(node.test):
            for child in node.orelse: visit(child, optional)
            return
        if isinstance(node, ast.Import):
            found.extend((a.name, node.lineno, optional) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.extend((node.module + ('.' + a.name if a.name != '*' else ''), node.lineno, optional) for a in node.names)
        for child in ast.iter_child_nodes(node): visit(child, optional)
    visit(tree, False)
    return found

def local_file(name, dirs):
    for d in dirs:
        for path in (os.path.join(d, name + '.py'), os.path.join(d, name, '__init__.py')):
            if os.path.isfile(path): return path
    return None

def missing_prefix(dotted):
    parts = dotted.split('.')
    try:
        spec = importlib.util.find_spec(parts[0])
    except Exception:
        return None
    if spec is None: return parts[0]
    for depth in range(1, len(parts)):
        if spec.origin not in (None, 'namespace') or not spec.submodule_search_locations: return None
        spec = importlib.machinery.PathFinder.find_spec('.'.join(parts[:depth + 1]), list(spec.submodule_search_locations))
        if spec is None: return '.'.join(parts[:depth + 1])
    return None

sys.path[:0] = roots
queue, seen, result, named = list(files), set(), [], set()
while queue and len(seen) < 200:
    path = os.path.realpath(queue.pop(0))
    if path in seen or not os.path.isfile(path): continue
    seen.add(path)
    try:
        with open(path, 'rb') as handle: source = handle.read()
        tree = ast.parse(source, path)
    except (SyntaxError, ValueError, OSError):
        continue
    lines = source.decode('utf-8', 'replace').splitlines()
    here = [os.path.dirname(path)] + roots
    for name, line, optional in imports(tree, lines):
        top = name.split('.')[0]
        local = local_file(top, here)
        if local:
            queue.append(local)
            sub = local_file(name.replace('.', os.sep), here)
            if sub: queue.append(sub)
            continue
        if optional or top in getattr(sys, 'stdlib_module_names', ()) or top in sys.builtin_module_names: continue
        prefix = missing_prefix(name)
        if prefix and prefix not in named:
            named.add(prefix)
            result.append({"name": name, "file": path, "line": lines[line - 1].strip() if line <= len(lines) else ''})
print(json.dumps(result))
`

/** An import the scan found missing: the dotted name as written, the file and its source line. */
export interface ScannedImport {
  name: string
  file: string
  line: string
}

/**
 * The imports of `files` (and of the project's modules they import) that the interpreter cannot find, in the order
 * they appear; `roots` are where the script's own modules live (its directory, the project root). Empty when the
 * interpreter could not answer.
 */
export async function scanPythonImports(python: string, files: string[], roots: string[], run: RunPython = runPython): Promise<ScannedImport[]> {
  const result = await run(python, ['-c', SCAN, JSON.stringify(files), JSON.stringify(roots)])
  const answer = result.exitCode === 0 ? lastJsonLine(result.stdout) : undefined
  return Array.isArray(answer) ? answer as ScannedImport[] : []
}

// How `resilient run` learns that the script's own interpreter ended on an uncaught ImportError, instead of reading
// text that anything (a print on stdout, a handled traceback, a subprocess) could have written.
//
// A `sitecustomize.py` in a private directory put first on PYTHONPATH. At start-up it puts back everything it
// touched (PYTHONPATH and its own variables in os.environ, sys.path, the project's own sitecustomize, which it
// imports in its place), so the script and its subprocesses see the environment they would see without resilient.
// It registers one atexit function. CPython's PyErr_Print stores an uncaught exception in sys.last_value before
// calling sys.excepthook (Python/pythonrun.c, `_PyErr_PrintEx(tstate, 1)`), and Py_FinalizeEx runs atexit after
// that, so the function sees the exception that ended the script even when the script replaced sys.excepthook; a
// sys.exit() or an exception the script caught leaves sys.last_value unset. It writes `<pid>.json`; the caller
// reads the file of the process it started only. Python 2.7 and 3.x; `-S`, `-E` and `-I` skip it (then resilient
// falls back to reading stderr).

/** Environment variables the hook reads once and removes. */
export const PYTHON_HOOK_VARIABLES = { dir: 'RESILIENT_RUN_HOOK', pythonPath: 'RESILIENT_RUN_PYTHONPATH' } as const

export const PYTHON_HOOK_SOURCE = String.raw`# Written by resilient run in its private directory; see docs/run.md ("Which failures count").
def _resilient_hook():
    import os, sys
    hook_dir = os.environ.pop('${PYTHON_HOOK_VARIABLES.dir}', None)
    original = os.environ.pop('${PYTHON_HOOK_VARIABLES.pythonPath}', None)
    here = os.path.dirname(os.path.abspath(__file__))
    if original is None:
        os.environ.pop('PYTHONPATH', None)
    else:
        os.environ['PYTHONPATH'] = original
    sys.path[:] = [entry for entry in sys.path if os.path.abspath(entry or '.') != here]
    if hook_dir:
        _resilient_report_at_exit(hook_dir)
    ours = sys.modules.pop('sitecustomize', None)
    try:
        import sitecustomize
    except ImportError as error:
        if getattr(error, 'name', 'sitecustomize') != 'sitecustomize':
            raise
    finally:
        if 'sitecustomize' not in sys.modules and ours is not None:
            sys.modules['sitecustomize'] = ours


def _resilient_report_at_exit(hook_dir):
    import os, sys
    try:
        open(os.path.join(hook_dir, '%d.started' % os.getpid()), 'w').close()
    except Exception:
        return
    import atexit

    def report():
        value = getattr(sys, 'last_value', None)
        main_module = None
        if value is None and sys.argv[:1] == ['-m']:
            args = list(getattr(sys, 'orig_argv', []))
            main_module = args[args.index('-m') + 1] if '-m' in args[:-1] else None
        saved = sys.path[:]
        try:
            # The script's directory goes first on sys.path: its own json.py must not answer for the standard one.
            sys.path[:] = [entry for entry in sys.path[1:] if entry]
            import json, traceback
            text = None
            if value is not None:
                text = ''.join(traceback.format_exception(type(value), value, getattr(sys, 'last_traceback', None)))
            pid = os.getpid()
            data = {'pid': pid, 'prefix': sys.prefix, 'traceback': text, 'mainModuleMissing': main_module,
                    'pytest': '_pytest.main' in sys.modules}
            with open(os.path.join(hook_dir, '%d.json' % pid), 'w') as out:
                json.dump(data, out)
        except Exception:
            pass
        finally:
            sys.path[:] = saved
    atexit.register(report)


_resilient_hook()
del _resilient_hook, _resilient_report_at_exit
`

/** The variables that load the hook from `dir` into the script's Python, keeping the user's PYTHONPATH after it. */
export function pythonHookEnv(dir: string, env: NodeJS.ProcessEnv, pathSeparator = ':'): Record<string, string> {
  const original = env.PYTHONPATH
  return {
    PYTHONPATH: original === undefined ? dir : `${dir}${pathSeparator}${original}`,
    [PYTHON_HOOK_VARIABLES.dir]: dir,
    ...(original === undefined ? {} : { [PYTHON_HOOK_VARIABLES.pythonPath]: original }),
  }
}

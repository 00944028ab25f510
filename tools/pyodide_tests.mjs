// Run pytest inside the npm Pyodide under Node (tools/pyodide_tests.py prepares the arguments).
//
//   node tools/pyodide_tests.mjs <pyodide dir> <wheel dir> <work dir> [pytest args...]
//
// Installs every wheel of <wheel dir> into Pyodide's site-packages (pure wheels only: each is unzipped, as
// micropip would do without its network step), mounts <work dir> (a copy of the repo's tests) at /work, and
// exits with pytest's status.
import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, wheelDir, workDir, ...pytestArgs] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(resolve(pyodideDir, "pyodide.mjs")).href);
const started = Date.now();
const pyodide = await loadPyodide({ indexURL: resolve(pyodideDir) + "/" });
const { FS } = pyodide;
for (const [dir, at] of [[wheelDir, "/wheels"], [workDir, "/work"]]) {
  FS.mkdirTree(at);
  FS.mount(FS.filesystems.NODEFS, { root: resolve(dir) }, at);
}
const wheels = readdirSync(wheelDir).filter((name) => name.endsWith(".whl"));
pyodide.globals.set("wheels", pyodide.toPy(wheels));
pyodide.globals.set("pytest_args", pyodide.toPy(pytestArgs));
const status = await pyodide.runPythonAsync(`
import os, site, sys, zipfile
target = site.getsitepackages()[0]
for name in wheels:
    with zipfile.ZipFile("/wheels/" + name) as whl:
        whl.extractall(target)
os.chdir("/work")
print(f"pyodide {sys.version.split()[0]}: {len(wheels)} wheels installed", flush=True)
import pytest
int(pytest.main(list(pytest_args)))
`);
console.log(`pyodide tests: exit ${status} after ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(status);

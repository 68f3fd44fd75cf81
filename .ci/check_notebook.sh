#!/usr/bin/env bash
# .ci/check_notebook.sh: runs docs/colab.ipynb top to bottom on this machine's CPU, from this
# checkout, as `jupyter nbconvert --execute` (in a venv of pinned versions, build-ci-tools/nbvenv,
# ignored by git), and checks what a reader would get: the sweep's CSV and its summary and
# glance charts (new files, not empty, shown inline), the notebook's lines for a
# CPU runtime, and nothing left behind (the tree as git saw it before, the notebook's TMPDIR
# empty). The executed copy goes to a temporary directory, never over docs/colab.ipynb.
# Ends with "tests: N passed, N failed, 0 skipped"; exit 1 when a check failed.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

venv=$root/build-ci-tools/nbvenv
if [ ! -f "$venv/.done" ]; then
    # Debian's python3 makes a venv only with python3-venv (ensurepip).
    if ! python3 -m venv "$venv" >/dev/null 2>&1; then
        rm -rf "$venv"
        apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
        python3 -m venv "$venv"
    fi
    "$venv/bin/pip" install -q --disable-pip-version-check \
        nbconvert==7.17.2 nbclient==0.11.0 nbformat==5.11.1 ipykernel==7.4.0
    touch "$venv/.done"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/fb-notebook.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp" "$work/jupyter"
tree_before=$(git status --short --untracked-files=all)
: >"$work/start"

passed=0 failed=0
check() { # NAME CONDITION...: one test
    local name=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
        echo "ok: $name"
    else
        failed=$((failed + 1))
        echo "FAIL: $name"
    fi
}

# Jupyter's and IPython's own files (connection files, profile) go to the temporary directory
# too; TMPDIR is the notebook's own, checked empty afterwards. FB_BUILD_DIR is the caller's
# build: the notebook is checked with the build it makes by itself.
t0=$(date +%s)
status=0
env -u FB_BUILD_DIR TMPDIR="$work/tmp" JUPYTER_RUNTIME_DIR="$work/jupyter/runtime" \
    JUPYTER_DATA_DIR="$work/jupyter/data" JUPYTER_CONFIG_DIR="$work/jupyter/config" \
    IPYTHONDIR="$work/jupyter/ipython" \
    "$venv/bin/jupyter" nbconvert --to notebook --execute docs/colab.ipynb \
    --ExecutePreprocessor.timeout=1800 --output-dir "$work" --output executed.ipynb \
    >"$work/nbconvert.log" 2>&1 || status=$?
echo "notebook: executed in $(( $(date +%s) - t0 )) s (nbconvert exit $status)"
check "the notebook runs top to bottom (nbconvert --execute)" [ "$status" = 0 ]
[ "$status" = 0 ] || tail -n 40 "$work/nbconvert.log"

# The executed notebook's text outputs, and how many PNGs it shows.
text=$work/outputs.txt
pngs=0
if [ -f "$work/executed.ipynb" ]; then
    pngs=$("$venv/bin/python" - "$work/executed.ipynb" "$text" <<'EOF'
import json, sys
nb = json.load(open(sys.argv[1], encoding="utf-8"))
pngs = 0
with open(sys.argv[2], "w", encoding="utf-8") as out:
    for cell in nb["cells"]:
        for o in cell.get("outputs", []):
            out.write("".join(o.get("text", "")))
            pngs += "image/png" in o.get("data", {})
print(pngs)
EOF
)
else
    : >"$text"
fi
echo "notebook: its printed lines, progress and build output aside:"
grep -E '^(fusebench checkout|CPU runtime|GPU runtime|built |sweep took|out/.*\.png$|PyTorch|CSV:|counters|GPU performance)' \
    "$text" | sed 's/^/  /' || true

csv=$(sed -n 's/^sweep took .* s; CSV: //p' "$text" | tail -n 1)
# made by this run (an older run's files may lie in out/) and not empty
fresh() { [ -n "$1" ] && [ -s "$1" ] && [ "$1" -nt "$work/start" ]; }
check "the sweep's CSV is new and not empty ($csv)" fresh "$csv"
check "the CSV is a fusebench results file" grep -q '^# fusebench: ' "${csv:-/dev/null}"
for chart in summary glance; do
    check "the $chart chart is new and not empty" fresh "${csv%.csv}-$chart.png"
done
check "the notebook shows the charts inline (2 PNGs or more; it showed $pngs)" [ "$pngs" -ge 2 ]
check "it says this runtime has no GPU" grep -q '^CPU runtime: no GPU' "$text"
check "its counters line says there is no GPU" grep -q '^counters: no GPU on this runtime' "$text"
check "it ran the PyTorch comparison or said why not" \
    grep -qE '^(PyTorch is not installed|CSV: .*torch-inprocess\.csv)' "$text"
check "it left nothing in its TMPDIR" [ -z "$(ls -A "$work/tmp")" ]
tree_after=$(git status --short --untracked-files=all)
check "it left the tree as git saw it (out/ and build-colab/ are ignored)" \
    [ "$tree_after" = "$tree_before" ]
[ "$tree_after" = "$tree_before" ] || diff <(echo "$tree_before") <(echo "$tree_after") || true

echo "tests: $passed passed, $failed failed, 0 skipped"
[ "$failed" = 0 ]

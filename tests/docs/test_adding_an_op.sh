#!/usr/bin/env bash
# docs/adding-an-op.md, followed to the letter: in a scratch copy of the tracked tree, adds a
# dummy exact op twice(x) = x + x (unary, no parameters, ULP_BOUND 0) by doing each step of
# the doc's checklist mechanically (a line inserted next to relu's in each file; docs/ops.md
# regenerated with the built fusebench), and checks
#   - that the files changed are the ones the checklist names, as many as the doc says
#     (the number read from its text: "an op touches **N files**");
#   - that a test fails on each step left undone (the doc's promise): without step 2 the
#     build stops on fb_op_twice, without 3 kernels_emulated fails naming ref_op, without 4
#     torch_peer_pure fails, without 5 ops_doc fails (each checked with the cheapest
#     test, before doing the step);
#   - that the op is right on the CPU and in the CUDA emulation: kernels_cpu (every op and
#     random chains, 1 thread: FB_TEST_FILTER picks those of its minutes-long run),
#     kernels_emulated (every op and the chains on the 2-SM grid, at fp32, fp16 and bf16),
#     cpu_kernels_vectorized, config_test_config_chains, ops_doc, torch_peer_pure, and a
#     tiny CPU sweep of [chain] add, twice, relu whose rows are verified.
# Builds only the targets those need (`meson setup -Dcuda=disabled` in the scratch copy);
# about 1.5 minutes on an idle 2-core machine, a few when loaded. A step slower than expected
# is reported "slow: ...", never failed on time. Skips (77) where meson, ninja, a C compiler
# or python3 is missing. The scratch copy (the working tree's files that git does not
# ignore, as they are now) is under $TMPDIR and removed at the end, failed or not.
set -uo pipefail
SRC=${FB_SOURCE_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}
DOC=$SRC/docs/adding-an-op.md

for tool in meson ninja python3; do
    command -v "$tool" >/dev/null || { echo "skip: no $tool on PATH"; exit 77; }
done
command -v "${CC:-cc}" >/dev/null || { echo "skip: no C compiler (${CC:-cc})"; exit 77; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/fb-add-op.XXXXXX") || exit 1
trap 'rm -rf "$scratch"' EXIT
# the build directory where the doc and the tests expect it: build/ of the tree (left out of
# the count of changed files)
orig=$scratch/orig tree=$scratch/tree build=$scratch/tree/build log=$scratch/log
mkdir "$orig"

fail() { echo "FAIL: $*"; exit 1; }
step_t0=$SECONDS
timed() { # LABEL EXPECTED_SECONDS: reports the step since the last call when it took longer
    local took=$((SECONDS - step_t0))
    echo "-- $1: ${took} s"
    [ "$took" -le "$2" ] || echo "slow: $1 took ${took} s (expected under $2 s on a 2-core machine)"
    step_t0=$SECONDS
}

# ---- the doc: the number of files it states and the files its checklist names ----
read -r stated named < <(python3 - "$DOC" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
words = "zero one two three four five six seven eight nine ten eleven twelve".split()
m = re.search(r"an op touches \*\*(\w+)\s+files\*\*", text)
if not m:
    sys.exit("adding-an-op.md: no 'an op touches **N files**' in its text")
n = m.group(1).lower()
n = int(n) if n.isdigit() else words.index(n) if n in words else sys.exit(f"not a number: {n}")
section = text.split("## The checklist", 1)[1].split("\n## ", 1)[0]
paths = re.findall(r"^\d+\. \*\*\[([^\]]+)\]", section, re.M)
print(n, ",".join(sorted(paths)))
EOF
) || fail "could not read the doc's checklist"
echo "adding-an-op.md: an op touches $stated files; its checklist names ${named//,/ }"

# ---- the scratch copy: the files git tracks or would (not ignored), as they are now; the
# sources' own files where there is no git ----
if git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' f; do  # a tracked file deleted here is no source
            if [ -e "$f" ]; then printf '%s\0' "$f"; fi
        done) |
        tar -C "$SRC" --null -T - -cf - | tar -C "$orig" -xf - || fail "could not copy the tree"
else
    # build directories (those with a build.ninja) and tool caches are no source
    tar -C "$SRC" --exclude-tag-all=build.ninja --exclude=./.git --exclude=./.meson-venv \
        --exclude=./.gpu-bundle --exclude='./build-ci-*' -cf - . | tar -C "$orig" -xf - ||
        fail "could not copy the tree"
fi
cp -a "$orig" "$tree"
timed "copy of the tree" 30

# ---- the checklist's steps, each an insertion next to relu's line ----
insert() { # FILE before|after REGEX TEXT: TEXT next to the one line of FILE that REGEX matches
    python3 - "$tree/$1" "$2" "$3" "$4" <<'EOF' && return
import re, sys
path, where, pattern, text = sys.argv[1:5]
lines = open(path).read().split("\n")
hits = [i for i, line in enumerate(lines) if re.match(pattern, line)]
if len(hits) != 1:
    sys.exit(f"{path}: {len(hits)} lines match {pattern!r}, expected 1")
at = hits[0] + (where == "after")
lines[at:at] = text.split("\n")
with open(path, "w") as f:
    f.write("\n".join(lines))
EOF
    fail "step on $1: no one line like relu's there any more; update this test"
}
step1() {
    insert kernels/op_table.h after '^ *X\(relu,' \
        "    X(twice,     1, 0, \"\",                 0)           \\"
}
step2() {
    insert kernels/elementwise_ops.h before '^/\* relu\(x\) =' '/* twice(x) = x + x */
FB_ELEMENTWISE float fb_op_twice(float x, float y, struct fb_op_params p)
{
    (void)y, (void)p;
    return x + x;
}
'
}
step3() { insert tests/kernels/kernel_check.c after '^ *case FB_OPID_relu:' \
    '    case FB_OPID_twice: return ref_add(x, x);'; }
step4() { insert tools/torch_peer.py after '^ *"relu":' \
    '    "twice": lambda torch, xs, p: torch.add(xs[0], xs[0]),'; }
step5() { "$build/fusebench" --list-ops > "$tree/docs/ops.md" || fail "fusebench --list-ops"; }

# meson test in the scratch build; FB_TEST_FILTER picks the cmocka tests of a kernel test
mtest() { # LOG [FB_TEST_FILTER=...] TEST...: the tests, their output into LOG
    local out=$1
    shift
    local filter=
    case ${1:-} in FB_TEST_FILTER=*) filter=${1#FB_TEST_FILTER=}; shift ;; esac
    FB_TEST_FILTER=$filter meson test -C "$build" --no-rebuild --verbose "$@" > "$out" 2>&1
}
build_targets() { ninja -C "$build" "$@" > "$log" 2>&1; }
expect_fail() { # WHAT LOG PATTERN: the run that made LOG failed, and LOG says PATTERN
    grep -q -- "$3" "$2" || { tail -n 40 "$2"; fail "$1: no '$3' in its output"; }
    echo "ok   $1"
}

step1
# inih and cmocka as the sources' build finds them: the system's, else their bundle (which git
# ignores, so the copy lacks it: scripts/gpu-check --prepare)
bundle=()
[ -d "$SRC/.gpu-bundle/include" ] && [ -d "$SRC/.gpu-bundle/lib" ] &&
    bundle=("-Dbundle=$SRC/.gpu-bundle")
meson setup "$build" "$tree" -Dcuda=disabled "${bundle[@]}" > "$log" 2>&1 ||
    { tail -n 40 "$log"; fail "meson setup"; }
# (the kernel tests need cmocka; a skip shows what meson said, not a guess at why)
meson test -C "$build" --list --no-rebuild > "$scratch/tests" 2>&1
grep -q '/ kernels_emulated$' "$scratch/tests" || {
    echo "skip: the scratch build lists no kernels_emulated test (cmocka missing?); meson said:"
    grep -i 'cmocka' "$log" | tail -n 3
    tail -n 5 "$scratch/tests"
    exit 77
}
timed "meson setup" 60
# step 2 left out: the build stops where the table asks for fb_op_twice
build_targets fusebench && fail "fusebench built without step 2 (the element function)"
expect_fail "without step 2 the build fails" "$log" "fb_op_twice"
timed "the build without step 2" 60

step2
kernels=(tests/kernels/test_kernels_cpu tests/kernels/test_kernels_emulated
         tests/config/config_test_config_chains libfbpeer.so)
build_targets fusebench "${kernels[@]}" || { tail -n 40 "$log"; fail "the build"; }
timed "the build (fusebench and the kernel tests)" 300
# step 3 left out: the kernel tests fail, naming ref_op (one of them, seconds)
mtest "$log" FB_TEST_FILTER=twice_meets_contract_on_2_sm_grid_stride_loop kernels_emulated &&
    fail "kernels_emulated passed without step 3 (the reference in kernel_check.c)"
expect_fail "without step 3 kernels_emulated fails" "$log" \
    "has no reference for op [0-9]* (twice)"

step3
build_targets "${kernels[@]}" || { tail -n 40 "$log"; fail "the build after step 3"; }
timed "step 3 and its rebuild" 120
# step 4 left out: torch_peer_pure finds an op with no torch form
mtest "$log" torch_peer_pure && fail "torch_peer_pure passed without step 4 (TORCH_OPS)"
expect_fail "without step 4 torch_peer_pure fails" "$log" \
    "^\(FAIL\|ERROR\): test_every_op_of_the_table_has_a_torch_mapping"
step4
# step 5 left out: ops_doc finds docs/ops.md behind the table
mtest "$log" ops_doc && fail "ops_doc passed without step 5 (docs/ops.md)"
expect_fail "without step 5 ops_doc fails" "$log" \
    "docs/ops.md differs from the op table"
step5
timed "steps 4 and 5 with their checks" 60

# ---- the files the steps changed: as many as the doc says, the ones its checklist names ----
changes=$(diff -rq "$orig" "$tree" | grep -vxF "Only in $tree: build")
changed=$(printf '%s\n' "$changes" | sed -n "s|^Files $orig/\(.*\) and .* differ$|\1|p" | sort)
others=$(printf '%s\n' "$changes" | grep -v '^Files ')
[ -z "$others" ] || fail "the steps added or removed files: $others"
count=$(printf '%s\n' "$changed" | grep -c .)
echo "files changed: $count ($(printf '%s\n' "$changed" | paste -sd' '))"
[ "$count" -eq "$stated" ] ||
    fail "the checklist changed $count files; docs/adding-an-op.md says $stated"
[ "$(printf '%s\n' "$changed" | paste -sd,)" = "$named" ] ||
    fail "the files changed are not the ones the checklist names (${named//,/ })"
echo "ok   the checklist changed the $stated files it names"

# ---- the op on the CPU and in the emulation ----
mtest "$log.cpu" 'FB_TEST_FILTER=*meet_contract_on_1_thread' kernels_cpu ||
    { cat "$log.cpu"; fail "kernels_cpu"; }
grep -q '^\[       OK \] ops_meet_contract_on_1_thread' "$log.cpu" ||
    { cat "$log.cpu"; fail "kernels_cpu ran no ops_meet_contract_on_1_thread"; }
echo "ok   kernels_cpu: $(grep -c '^\[       OK \]' "$log.cpu") tests (every op, chains; 1 thread)"
timed "kernels_cpu" 120
mtest "$log.emu" 'FB_TEST_FILTER=*_2_sm_grid*' kernels_emulated ||
    { cat "$log.emu"; fail "kernels_emulated"; }
for t in twice_meets_contract_on_2_sm_grid_stride_loop twice_fp16_meets_contract_on_2_sm_grid \
         twice_bf16_meets_contract_on_2_sm_grid; do
    grep -q "^\[       OK \] $t\$" "$log.emu" ||
        { cat "$log.emu"; fail "kernels_emulated ran no $t"; }
done
echo "ok   kernels_emulated: $(grep -c '^\[       OK \]' "$log.emu") tests" \
    "(every op, chains; 2-SM grid)"
timed "kernels_emulated" 120
rest=(cpu_kernels_vectorized config_test_config_chains ops_doc torch_peer_pure)
mtest "$log.rest" "${rest[@]}" || { cat "$log.rest"; fail "${rest[*]}"; }
echo "ok   ${rest[*]}"
timed "${rest[*]}" 60

# ---- a tiny sweep of a chain with the op: every row measured and verified ----
cat > "$scratch/twice.ini" <<EOF
[sweep]
sizes = 1K
variants = eager_add_twice_relu, fused_add_twice_relu
[backend]
backend = cpu
cpu_threads = 1
[measure]
warmup = 1
min_reps = 3
max_reps = 5
min_time = 0.0001
max_time = 0.01
[output]
csv = $scratch/twice.csv
[chain add_twice_relu]
ops = add, twice, relu
EOF
"$build/fusebench" "$scratch/twice.ini" --no-plot > "$log" 2>&1 || { cat "$log"; fail "the sweep"; }
python3 - "$scratch/twice.csv" <<'EOF' || fail "the sweep's rows"
import csv, sys
rows = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
got = sorted((r["variant"], r["n"], r["verified"], r["status"]) for r in rows)
print("sweep rows:", got)
want_variants = ["eager_add_twice_relu", "fused_add_twice_relu"]
if sorted(r["variant"] for r in rows) != want_variants:
    sys.exit(f"variants {[r['variant'] for r in rows]}, expected {want_variants}")
bad = [r for r in rows if r["verified"] != "1" or r["status"] not in ("ok", "noisy")]
if bad:
    sys.exit(f"rows not verified and measured: {bad}")
EOF
echo "ok   the sweep of add, twice, relu: every row verified"
timed "the sweep" 30
echo "adding_an_op: passed"

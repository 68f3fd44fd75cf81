/* One visual identity per variant, the same in every chart and every run: a colour of the
 * Okabe-Ito palette (safe for the common colour-vision deficiencies and distinct in
 * grayscale by its marker and dash), a marker and a dash pattern, and a label in words
 * ("eager: add, relu (2 kernels)"). The built-in variants and the PyTorch peer's have fixed
 * entries of one table (identity.c); any other variant (a chain's eager_NAME and fused_NAME,
 * a name from another tool) takes an entry chosen by a hash of NAME, so a custom chain keeps
 * its style from run to run and from chart to chart, unless another series of the run has
 * that colour and marker (then the next free entry: fb_chart_identity_next).
 *
 * A series drawn from an overlay (a file after the first) or in a format other than the
 * variant's plain one (fp16, bf16, streaming stores, cold cache) keeps the colour and the
 * marker's shape, open instead of filled, with a dash of its own (fb_chart_identity_form);
 * a 16-bit dtype also takes a colour of its own (bf16 a marker too), as a dtype run draws
 * every variant in three dtypes on one chart. */
#ifndef FB_CHART_IDENTITY_H
#define FB_CHART_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>

struct fb_chart_identity {
    unsigned colour; /* 0xRRGGBB */
    int point_type;  /* gnuplot's: a filled marker (5, 7, 9, 11, 13, 15) */
    int dash;        /* gnuplot's dash type: 1 solid, 2 dashed, 3 dotted, 4 dash-dot, 5 .. */
};

/* The identity of `variant` (a name as the CSV's variant column writes it). */
struct fb_chart_identity fb_chart_identity_of(const char *variant);

/* The identity of a series of that variant: overlay (its file is not the charted run's) and
 * form, the format suffix of its key ("", "-fp16", "-streaming", "-bf16-cold": derive.h).
 * Plain and not an overlay: the variant's own; else the open marker of the same shape and a
 * dash by form (streaming 4, a 16-bit dtype 5, cold 3; an overlay 2); fp16 and bf16 also
 * another colour of the cycle (two and four on) and bf16 another marker. */
struct fb_chart_identity fb_chart_identity_form(const char *variant, bool overlay,
                                                const char *form);

/* Whether `variant` has a fixed entry of the table (a built-in or a peer's variant); a
 * name that has none takes a hashed entry. */
bool fb_chart_identity_is_fixed(const char *variant);

/* The hashed entry after id's: its colour's next marker, past the last marker the next
 * colour's first, of the same form (filled or open); id itself where its colour or marker is
 * none of the hashed ones'. Two hashed names can hash to one entry (36 of them; a
 * chain-length run has 26 series): the charts move the later one on until no other series
 * of the run has its colour and marker (derive.c), so that none is told apart by its dash
 * alone. */
struct fb_chart_identity fb_chart_identity_next(struct fb_chart_identity id);

/* The words of a series' label into out (size bytes):
 *   "<how>: <what> (<count>)<form>"
 * how and what from the variant's entry ("eager", "add, relu"), or for another name its
 * how ("eager add_k3" of eager_add_k3: fb_chart_identity_how) and, as what, `ops` when given
 * (a chain's ops as the config writes them: "add, relu, scale(0.5)"; past 40 characters cut
 * after an op, with "…"), else no ": <what>" at all; count from the
 * launches the file counted and the host launches ("2 kernels", "2 kernels, 1 launch",
 * "no kernel of ours"; left out when unknown: NaN); form in words (", fp16", ", streaming
 * stores", ", cold cache"). Returns out. */
char *fb_chart_identity_words(char *out, size_t size, const char *variant, const char *role,
                              const char *ops, const char *form, double launches,
                              double host_launches);

/* A series' form (its key's format suffix) in words: ", fp16", ", streaming stores",
 * ", cold cache" ("" for the plain form). Returns out. */
char *fb_chart_identity_form_words(char *out, size_t size, const char *form);

#define FB_CHART_HOW_CHARS 96

/* The "how" of a variant's label ("eager", "fused", "torch.compile"; "eager NAME" and
 * "fused NAME" for a chain's eager_NAME and fused_NAME; the name itself for any other),
 * for a pair's title, "<eager label> / <fused how> (<count>)". The text lives in a buffer
 * the next call reuses. */
const char *fb_chart_identity_how(const char *variant, const char *role);

#endif

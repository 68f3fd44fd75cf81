/* Drawing the charts: fusebench hands the CSV to plots/render.sh (gnuplot) rather than
 * drawing itself, so charts can be redrawn from any results file without measuring. */
#ifndef FB_APP_PLOTS_H
#define FB_APP_PLOTS_H

/* Runs plots/render.sh on csv_files (n >= 1 of them) into out_dir (NULL: the directory of the
 * first CSV). Returns the script's exit status (0 drawn, 1 a chart failed, 3 gnuplot missing,
 * 2 bad input, 130 interrupted), or 1 when the script could not be started or was killed.
 * The script prints its own messages. */
int fb_plots_render(const char *const *csv_files, int n, const char *out_dir);

/* The --plot command: fb_plots_render, its exit status as an fb_status: FB_OK (drawn),
 * FB_ERR_USAGE (bad input, or gnuplot missing), FB_ERR_INTERRUPTED (130), FB_ERR_RUNTIME
 * (anything else). */
int fb_app_redraw(const char *const *csv_files, int n, const char *out_dir);

#endif

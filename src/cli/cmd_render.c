/* cli/cmd_render.c - `swerve render`: run a scenario and draw it (SVG or PNG), animate it
 * (animated SVG), or write video frames (PNG) and assemble them with ffmpeg when installed. */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "swerve/render.h"

extern char **environ;

#define MAX_FRAMES 100000

static void render_usage(FILE *f)
{
	fputs("usage: swerve render SCENARIO [-o OUT.svg|OUT.png] [OPTIONS]\n"
	      "\n"
	      "Simulates SCENARIO and draws the world (obstacles, regions, targets), every agent's\n"
	      "trajectory coloured by mode, transition markers (hover for the guard), time ticks\n"
	      "and the agents' discs at the end and at chosen instants, as SVG or PNG (by the\n"
	      "output's extension).  It can also write an animated SVG, PNG frames, and a video\n"
	      "assembled from them by ffmpeg (when ffmpeg is installed).\n"
	      "\n"
	      "options:\n"
	      "  -o, --output FILE    picture path, .svg or .png (default NAME.svg, NAME the\n"
	      "                       scenario's)\n"
	      "  -a, --at T           also draw the agents at time T (repeatable, up to 16)\n"
	      "  -w, --width PX       picture width in pixels (default 900)\n"
	      "  -t, --ticks S        a tick on the trajectories every S seconds (0: none; default 5)\n"
	      "  -s, --seed N         override the scenario seed\n"
	      "  -d, --duration T     override the simulated duration, s\n"
	      "      --animate FILE   also write an animated SVG (SMIL) of the run to FILE\n"
	      "      --frames DIR     also write video frames DIR/frame-00000.png ... (DIR is created)\n"
	      "      --video FILE     also write a video (e.g. .mp4, .webm, .gif) with ffmpeg\n"
	      "      --fps N          frames per second of frames and video (default 10)\n"
	      "      --speed X        simulated seconds per second of animation/video (default 1)\n"
	      "  -q, --quiet          no progress and no summary (errors only)\n"
	      "  -v, --verbose        also notes (what was loaded)\n"
	      "      --field NAME     instead, draw the field NAME of the scenario's <world>\n"
	      "                       (streamlines over the map; no simulation)\n"
	      "      --field-spacing S  streamline seeds every S m (default 1)\n"
	      "      --field-cache DIR, --no-field-cache  as for swerve run\n"
	      "  -V, --version        the version\n"
	      "  -h, --help           this text\n"
	      "\n"
	      "Progress (on a terminal) and the summary go to standard error.  Exit status: 0 written,\n"
	      "1 simulation or write failure (or ffmpeg failed), 2 bad usage, bad input, or\n"
	      "--video without ffmpeg installed.\n",
	      f);
}

typedef struct {
	const char *animate, *frames, *video;
	double fps;
	int quiet;
} render_opts;

/* Writes the frames of the run to dir (created when missing); returns a status. */
static int write_frames(const sw_world *w, const sw_trace *tr, const sw_render_def *def,
			const render_opts *o, const char *dir, int *n_frames, sw_diag *diag)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return sw_diag_add(diag, SW_SEV_ERROR, dir, 0, 0, "cannot create the directory: %s",
				   strerror(errno)),
		       SW_EIO;
	double tend = sw_world_time(w), dt = def->anim_speed / o->fps;
	long n = (long)floor(tend / dt + 1e-9) + 1;
	if (n > MAX_FRAMES)
		return sw_diag_add(diag, SW_SEV_ERROR, dir, 0, 0,
				   "%ld frames (at most %d): lower --fps or raise --speed", n,
				   MAX_FRAMES),
		       SW_EUSAGE;
	int tty = !o->quiet && isatty(STDERR_FILENO);
	char path[4096];
	for (long f = 0; f < n; f++) {
		if (snprintf(path, sizeof path, "%s/frame-%05ld.png", dir, f) >= (int)sizeof path)
			return sw_diag_add(diag, SW_SEV_ERROR, dir, 0, 0, "path too long"), SW_EIO;
		int st = sw_render_frame(w, tr, def, fmin(f * dt, tend), SW_IMAGE_PNG, path, diag);
		if (st != SW_SUCCESS)
			return st;
		if (tty)
			cli_progress((double)(f + 1) / (double)n);
	}
	*n_frames = (int)n;
	return SW_SUCCESS;
}

/* Whether an executable ffmpeg is on PATH (as posix_spawnp will look for it), so that --video
 * is refused before anything is written when it is not. */
static int ffmpeg_on_path(void)
{
	const char *path = getenv("PATH");
	char dir[4096], file[4200];
	for (const char *p = path ? path : ""; p;) {
		const char *colon = strchr(p, ':');
		size_t len = colon ? (size_t)(colon - p) : strlen(p);
		if (len < sizeof dir) {
			memcpy(dir, p, len);
			dir[len] = '\0';
			snprintf(file, sizeof file, "%s/ffmpeg", len ? dir : ".");
			if (access(file, X_OK) == 0)
				return 1;
		}
		p = colon ? colon + 1 : NULL;
	}
	return 0;
}

/* Runs ffmpeg on the frames in dir into video.  ffmpeg writes over a temporary that
 * sw_atomic_open created beside video (an unpredictable name, so ffmpeg never opens a file or
 * symlink planted there; it keeps video's extension, from which ffmpeg picks the format), which
 * is synced and renamed over video when ffmpeg succeeds.  Returns EXIT_OK, EXIT_BAD_INPUT (no
 * ffmpeg) or EXIT_RUNTIME. */
static int run_ffmpeg(const char *dir, double fps, const char *video)
{
	char pattern[4096], rate[32], tmp[4200];
	const char *ext = strrchr(video, '.');
	const char *slash = strrchr(video, '/');
	int no_ext = !ext || (slash && ext < slash) || ext == (slash ? slash + 1 : video);
	snprintf(pattern, sizeof pattern, "%s/frame-%%05d.png", dir);
	snprintf(rate, sizeof rate, "%g", fps);
	FILE *f = sw_atomic_open(video, tmp, sizeof tmp, NULL);
	if (!f) {
		fprintf(stderr, "swerve render: cannot write %s: %s\n", video, strerror(errno));
		return EXIT_RUNTIME;
	}
	/* Even sizes (yuv420p needs them); H.264 wants yuv420p for players to accept it.  Without
	 * an extension the format is named: MP4. */
	int gif = !no_ext && strcmp(ext, ".gif") == 0;
	char *argv[16];
	int n = 0;
	const char *args[] = {"ffmpeg", "-y", "-loglevel", "error", "-framerate", rate, "-i",
			      pattern, "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2"};
	for (size_t k = 0; k < sizeof args / sizeof args[0]; k++)
		argv[n++] = (char *)args[k];
	if (!gif) {
		argv[n++] = "-pix_fmt";
		argv[n++] = "yuv420p";
	}
	if (no_ext) {
		argv[n++] = "-f";
		argv[n++] = "mp4";
	}
	argv[n++] = tmp;
	argv[n] = NULL;
	pid_t pid;
	int rc = posix_spawnp(&pid, "ffmpeg", NULL, NULL, argv, environ);
	if (rc == ENOENT) {
		sw_atomic_abort(f, tmp);
		fprintf(stderr, "swerve render: --video needs ffmpeg, which is not installed (the "
				"animated SVG of --animate and the frames of --frames need nothing)\n");
		return EXIT_BAD_INPUT;
	}
	if (rc != 0) {
		sw_atomic_abort(f, tmp);
		fprintf(stderr, "swerve render: cannot start ffmpeg: %s\n", strerror(rc));
		return EXIT_RUNTIME;
	}
	int status = 0;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		sw_atomic_abort(f, tmp);
		fprintf(stderr, "swerve render: ffmpeg failed to write %s\n", video);
		return EXIT_RUNTIME;
	}
	/* f holds nothing of its own: closing it syncs what ffmpeg wrote to the same file. */
	if (sw_atomic_commit(f, tmp, video, NULL) != SW_SUCCESS) {
		fprintf(stderr, "swerve render: cannot write %s: %s\n", video, strerror(errno));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

/* Removes the frames written to a temporary directory and the directory. */
static void remove_frames(const char *dir, int n)
{
	char path[4096];
	for (int f = 0; f < n; f++) {
		snprintf(path, sizeof path, "%s/frame-%05d.png", dir, f);
		unlink(path);
	}
	rmdir(dir);
}

/* The animation, frames and video the options ask for; returns the exit code. */
static int outputs(const sw_world *w, const sw_trace *tr, const sw_render_def *def,
		   const render_opts *o, sw_diag *diag)
{
	int st = SW_SUCCESS, n = 0;
	if (o->animate) {
		st = sw_render_animation(w, tr, def, o->animate, diag);
		if (st == SW_SUCCESS && !o->quiet)
			fprintf(stderr, "swerve: animation in %s\n", o->animate);
	}
	if (st == SW_SUCCESS && o->frames) {
		st = write_frames(w, tr, def, o, o->frames, &n, diag);
		if (st == SW_SUCCESS && !o->quiet)
			fprintf(stderr, "swerve: %d frames in %s/\n", n, o->frames);
	}
	if (st != SW_SUCCESS || !o->video)
		return cli_exit_code(st);
	char dir[] = "/tmp/swerve_frames_XXXXXX";
	if (!mkdtemp(dir)) {
		fprintf(stderr, "swerve render: cannot create a directory for the frames\n");
		return EXIT_RUNTIME;
	}
	st = write_frames(w, tr, def, o, dir, &n, diag);
	int code = st == SW_SUCCESS ? run_ffmpeg(dir, o->fps, o->video) : cli_exit_code(st);
	remove_frames(dir, st == SW_SUCCESS ? n : MAX_FRAMES);
	if (code == EXIT_OK && !o->quiet)
		fprintf(stderr, "swerve: video in %s\n", o->video);
	return code;
}

/* --field NAME: the field's picture instead of a run's (frees m). */
static int render_field(sw_model *m, const char *field, const char *cache, int no_cache,
			sw_field_svg_def *fdef, double width, const char *outpath)
{
	static sw_diag diag;
	cli_diag_init(&diag);
	int k = sw_model_find_field(m, field);
	int st = SW_EINPUT;
	sw_plan *plan = NULL;
	if (k < 0)
		fprintf(stderr, "swerve render: --field '%s': %s declares no such <navfield> or "
				"<vectorfield>\n", field, m->file);
	else
		st = cli_plan_fields(m, cache, no_cache, &plan);
	fdef->width = width;
	if (st == SW_SUCCESS)
		st = sw_render_field_svg(m, sw_plan_grid(plan, k), fdef, outpath, &diag);
	sw_plan_free(plan);
	cli_print_diag(&diag);
	if (st == SW_SUCCESS && cli_verbosity >= 0)
		fprintf(stderr, "swerve: field %s of %s in %s\n", field, m->name, outpath);
	sw_model_free(m);
	return cli_exit_code(st);
}

int cmd_render(int argc, char **argv)
{
	enum { OPT_ANIMATE = 256, OPT_FRAMES, OPT_VIDEO, OPT_FPS, OPT_SPEED };
	static const struct option opts[] = {
	    {"output", required_argument, NULL, 'o'}, {"at", required_argument, NULL, 'a'},
	    {"width", required_argument, NULL, 'w'},  {"ticks", required_argument, NULL, 't'},
	    {"seed", required_argument, NULL, 's'},   {"duration", required_argument, NULL, 'd'},
	    {"animate", required_argument, NULL, OPT_ANIMATE},
	    {"frames", required_argument, NULL, OPT_FRAMES},
	    {"video", required_argument, NULL, OPT_VIDEO},
	    {"fps", required_argument, NULL, OPT_FPS},
	    {"speed", required_argument, NULL, OPT_SPEED},
	    {"field", required_argument, NULL, OPT_FIELD},
	    {"field-spacing", required_argument, NULL, OPT_FIELD_SPACING},
	    {"field-cache", required_argument, NULL, OPT_FIELD_CACHE},
	    {"no-field-cache", no_argument, NULL, OPT_NO_FIELD_CACHE},
	    CLI_LONG};
	sw_field_svg_def fdef = sw_default_field_svg_def();
	const char *field = NULL, *cache = NULL;
	int no_cache = 0;
	sw_render_def def = sw_default_render_def();
	render_opts o = {NULL, NULL, NULL, 10.0, 0};
	double instants[16], seed = -1, duration = 0;
	const char *outpath = NULL;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":o:a:w:t:s:d:" CLI_SHORT, opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (cli_output_option("-o", optarg))
				return EXIT_BAD_INPUT;
			outpath = optarg;
			break;
		case 'a':
			if (def.n_instants == 16)
				return cli_usage_error("--at: at most 16 instants");
			if (cli_number("render", "--at", optarg, 0, &instants[def.n_instants]))
				return EXIT_BAD_INPUT;
			def.n_instants++;
			break;
		case 'w':
			if (cli_number("render", "--width", optarg, 10, &def.width))
				return EXIT_BAD_INPUT;
			if (def.width > 20000)
				return cli_usage_error("--width: expected 10 .. 20000 pixels");
			break;
		case 't':
			if (cli_number("render", "--ticks", optarg, 0, &def.tick_every))
				return EXIT_BAD_INPUT;
			break;
		case 's':
			if (cli_number("render", "--seed", optarg, 0, &seed))
				return EXIT_BAD_INPUT;
			break;
		case 'd':
			if (cli_number("render", "--duration", optarg, 1e-9, &duration))
				return EXIT_BAD_INPUT;
			break;
		case OPT_ANIMATE: o.animate = optarg; break;
		case OPT_FRAMES: o.frames = optarg; break;
		case OPT_VIDEO: o.video = optarg; break;
		case OPT_FPS:
			if (cli_number("render", "--fps", optarg, 0.01, &o.fps))
				return EXIT_BAD_INPUT;
			break;
		case OPT_SPEED:
			if (cli_number("render", "--speed", optarg, 1e-6, &def.anim_speed))
				return EXIT_BAD_INPUT;
			break;
		case OPT_FIELD: field = optarg; break;
		case OPT_FIELD_SPACING:
			if (cli_number("render", "--field-spacing", optarg, 1e-3, &fdef.spacing))
				return EXIT_BAD_INPUT;
			break;
		case OPT_FIELD_CACHE: cache = optarg; break;
		case OPT_NO_FIELD_CACHE: no_cache = 1; break;
		default: {
			int code = cli_option(c, argv, opts, render_usage);
			if (code >= 0)
				return code;
		}
		}
	}
	if (optind != argc - 1)
		return cli_usage_error("expected exactly one scenario file");
	o.quiet = cli_verbosity < 0;
	sw_image_format fmt = SW_IMAGE_SVG;
	if (outpath && sw_image_format_of(outpath, &fmt) != SW_SUCCESS)
		return cli_usage_error("%s: expected a .svg or .png file name", outpath);
	if (o.animate && (sw_image_format_of(o.animate, &(sw_image_format){0}) != SW_SUCCESS ||
			  strcmp(strrchr(o.animate, '.'), ".svg") != 0)) {
		return cli_usage_error("--animate %s: expected a .svg file name", o.animate);
	}
	if (o.video && !ffmpeg_on_path()) {
		fprintf(stderr, "swerve render: --video needs ffmpeg, which is not installed (the "
				"animated SVG of --animate and the frames of --frames need nothing); "
				"nothing was written\n");
		return EXIT_BAD_INPUT;
	}
	def.instants = instants;
	static sw_diag diag;
	cli_diag_init(&diag);
	sw_model *m = NULL;
	sw_world_def wd;
	int code = cli_load(argv[optind], seed, duration, &m, &wd);
	if (code != EXIT_OK)
		return code;
	char defpath[SW_NAME_MAX + 8];
	if (!outpath) {
		char safe[SW_NAME_MAX];
		cli_safe_name(m->name, safe, sizeof safe);
		snprintf(defpath, sizeof defpath, "%s.svg", safe);
		outpath = defpath;
	}
	/* No picture, animation or video replaces a file the scenario reads. */
	if (cli_refuse_input("render", outpath, m) ||
	    (o.animate && cli_refuse_input("render", o.animate, m)) ||
	    (o.video && cli_refuse_input("render", o.video, m))) {
		sw_model_free(m);
		return EXIT_BAD_INPUT;
	}
	if (field)
		return render_field(m, field, cache, no_cache, &fdef, def.width, outpath);
	sw_plan *plan = NULL;
	int st = cli_plan_fields(m, cache, no_cache, &plan);
	if (st != SW_SUCCESS) {
		sw_model_free(m);
		return cli_exit_code(st);
	}
	wd.plan = plan;
	sw_world *w = NULL;
	sw_trace *tr = NULL;
	st = cli_record(m, &wd, !o.quiet && isatty(STDERR_FILENO), &w, &tr, &diag);
	if (st == SW_SUCCESS)
		st = sw_render_image(w, tr, &def, fmt, outpath, &diag);
	code = cli_exit_code(st);
	if (st == SW_SUCCESS && !o.quiet)
		fprintf(stderr, "swerve: picture of %s in %s\n", m->name, outpath);
	if (st == SW_SUCCESS)
		code = outputs(w, tr, &def, &o, &diag);
	cli_print_diag(&diag);
	sw_world_destroy(w);
	sw_trace_free(tr);
	sw_plan_free(plan);
	sw_model_free(m);
	return code;
}

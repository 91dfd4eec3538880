/* cli/cmd_render.c - `swerve render`: run a scenario and draw it as SVG. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "swerve/render.h"

static void render_usage(FILE *f)
{
	fputs("usage: swerve render SCENARIO [-o OUT.svg] [OPTIONS]\n"
	      "\n"
	      "Simulates SCENARIO and draws the world (obstacles, regions, targets), every agent's\n"
	      "trajectory coloured by mode, transition markers (hover for the guard), time ticks\n"
	      "and the agents' discs at the end and at chosen instants, as an SVG picture.\n"
	      "\n"
	      "options:\n"
	      "  -o, --output FILE    picture path (default NAME.svg, NAME the scenario's)\n"
	      "  -a, --at T           also draw the agents at time T (repeatable, up to 16)\n"
	      "  -w, --width PX       picture width in pixels (default 900)\n"
	      "  -t, --ticks S        a tick on the trajectories every S seconds (0: none; default 5)\n"
	      "  -s, --seed N         override the scenario seed\n"
	      "  -d, --duration T     override the simulated duration, s\n"
	      "      --field NAME     instead, draw the field NAME of the scenario's <world>\n"
	      "                       (streamlines over the map; no simulation)\n"
	      "      --field-spacing S  streamline seeds every S m (default 1)\n"
	      "      --field-cache DIR, --no-field-cache  as for swerve run\n"
	      "  -h, --help           this text\n",
	      f);
}

/* --field NAME: the field's picture instead of a run's (frees m). */
static int render_field(sw_model *m, const char *field, const char *cache, int no_cache,
			sw_field_svg_def *fdef, double width, const char *outpath)
{
	static sw_diag diag;
	sw_diag_init(&diag);
	int k = sw_model_find_field(m, field);
	int st = SW_EINPUT;
	if (k < 0)
		fprintf(stderr, "swerve render: --field '%s': %s declares no such <navfield> or "
				"<vectorfield>\n", field, m->file);
	else
		st = cli_prepare_fields(m, cache, no_cache);
	fdef->width = width;
	if (st == SW_SUCCESS)
		st = sw_render_field_svg(m, m->fields[k].grid, fdef, outpath, &diag);
	cli_print_diag(&diag);
	if (st == SW_SUCCESS)
		printf("swerve: field %s of %s in %s\n", field, m->name, outpath);
	sw_model_free(m);
	return cli_exit_code(st);
}

int cmd_render(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"output", required_argument, NULL, 'o'}, {"at", required_argument, NULL, 'a'},
	    {"width", required_argument, NULL, 'w'},  {"ticks", required_argument, NULL, 't'},
	    {"seed", required_argument, NULL, 's'},   {"duration", required_argument, NULL, 'd'},
	    {"field", required_argument, NULL, OPT_FIELD},
	    {"field-spacing", required_argument, NULL, OPT_FIELD_SPACING},
	    {"field-cache", required_argument, NULL, OPT_FIELD_CACHE},
	    {"no-field-cache", no_argument, NULL, OPT_NO_FIELD_CACHE},
	    {"help", no_argument, NULL, 'h'},         {NULL, 0, NULL, 0}};
	sw_field_svg_def fdef = sw_default_field_svg_def();
	const char *field = NULL, *cache = NULL;
	int no_cache = 0;
	sw_render_def def = sw_default_render_def();
	double instants[16], seed = -1, duration = 0;
	const char *outpath = NULL;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:a:w:t:s:d:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o': outpath = optarg; break;
		case 'a':
			if (def.n_instants == 16 || cli_number("render", "--at", optarg, 0, &instants[def.n_instants]))
				return EXIT_BAD_INPUT;
			def.n_instants++;
			break;
		case 'w':
			if (cli_number("render", "--width", optarg, 10, &def.width))
				return EXIT_BAD_INPUT;
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
		case OPT_FIELD: field = optarg; break;
		case OPT_FIELD_SPACING:
			if (cli_number("render", "--field-spacing", optarg, 1e-3, &fdef.spacing))
				return EXIT_BAD_INPUT;
			break;
		case OPT_FIELD_CACHE: cache = optarg; break;
		case OPT_NO_FIELD_CACHE: no_cache = 1; break;
		case 'h': render_usage(stdout); return EXIT_OK;
		default: render_usage(stderr); return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc - 1) {
		fprintf(stderr, "swerve render: expected exactly one scenario file\n");
		return EXIT_BAD_INPUT;
	}
	def.instants = instants;
	static sw_diag diag;
	sw_diag_init(&diag);
	sw_model *m = NULL;
	int st = sw_scenario_load(argv[optind], &m, &diag);
	if (st != SW_SUCCESS) {
		cli_print_diag(&diag);
		return cli_load_exit_code(st);
	}
	if (seed >= 0)
		m->run.seed = (uint64_t)seed;
	if (duration > 0)
		m->run.duration = duration;
	char defpath[SW_NAME_MAX + 8];
	if (!outpath) {
		snprintf(defpath, sizeof defpath, "%s.svg", m->name);
		outpath = defpath;
	}
	if (field)
		return render_field(m, field, cache, no_cache, &fdef, def.width, outpath);
	st = cli_prepare_fields(m, cache, no_cache);
	if (st != SW_SUCCESS) {
		sw_model_free(m);
		return cli_exit_code(st);
	}
	sw_world *w = NULL;
	sw_trace *tr = sw_trace_alloc(m);
	st = tr ? sw_world_create(m, &w, &diag) : SW_ENOMEM;
	if (st == SW_SUCCESS) {
		sw_world_set_event_fn(w, sw_trace_event, tr);
		st = sw_world_run(w, sw_trace_sample, tr, NULL, &diag);
	}
	if (st == SW_SUCCESS)
		st = sw_render_svg(w, tr, &def, outpath, &diag);
	cli_print_diag(&diag);
	if (st == SW_SUCCESS)
		printf("swerve: picture of %s in %s\n", m->name, outpath);
	sw_world_destroy(w);
	sw_trace_free(tr);
	sw_model_free(m);
	return cli_exit_code(st);
}

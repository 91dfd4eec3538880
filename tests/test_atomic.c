/* tests/test_atomic.c - every file swerve writes goes through one atomic writer (core/atomic.c).
 *
 * The writer itself: a temporary beside the target with an unpredictable name, renamed over the
 * target whole; a symlink at the target is replaced, never followed; 0666 & ~umask; failures
 * remove the temporary and name the file with the errno text.  Then the commands, run as a user
 * would (the CLI in $SWERVE, default build/swerve): symlinks planted at the temporary names the
 * writers used to use (checkpoint.swck.tmp, PATH.tmp<pid>, VIDEO.partial.EXT) are not followed;
 * every output honours the umask; `graph -o` is all or nothing under a write failure (a file
 * size limit); `graph` to a full stdout fails; a run whose commit stops between two renames
 * leaves no summary.json (the commit record) beside the new trajectory. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "swerve/core.h"
#include "tests.h"

Suite *atomic_suite(void);

/* ---- helpers ------------------------------------------------------------------------------ */

static const char *cli_path(void)
{
	const char *s = getenv("SWERVE");
	return s && s[0] ? s : "build/swerve";
}

/* A fresh directory under /tmp (the caller removes it with rm_tree). */
static void make_dir(char *buf, size_t n)
{
	snprintf(buf, n, "/tmp/swerve_atomic_XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(buf));
}

static void rm_tree(const char *dir)
{
	char cmd[4200];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* The whole content of path (static buffer; "" for a missing file). */
static const char *get(const char *path)
{
	static char buf[1 << 16];
	buf[0] = '\0';
	FILE *f = fopen(path, "r");
	if (!f)
		return buf;
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Number of entries of dir other than . and .. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	int n = 0;
	for (struct dirent *e; (e = readdir(d)) != NULL;)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return n;
}

static int is_regular(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static unsigned mode_of(const char *path)
{
	struct stat st;
	ck_assert_msg(lstat(path, &st) == 0, "%s missing", path);
	return (unsigned)(st.st_mode & 0777);
}

/* How a command is run: hook called in the parent with the child's pid before the child
 * starts swerve (to plant a file at a name derived from the pid), a file-size limit (bytes, 0:
 * none), the file stdout goes to (NULL: /dev/null) and a directory put first on PATH. */
typedef struct {
	void (*plant)(pid_t pid, void *ctx);
	void *ctx;
	long fsize;
	const char *out;
	const char *path_first;
} run_opts;

/* Runs swerve with argv (argv[0] is ignored); returns its exit status, -1 when it did not exit. */
static int run_cli(const char *const *argv, const run_opts *o)
{
	static const run_opts none = {NULL, NULL, 0, NULL, NULL};
	if (!o)
		o = &none;
	int go[2];
	ck_assert_int_eq(pipe(go), 0);
	fflush(NULL);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		char c;
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(126);
		int out = open(o->out ? o->out : "/dev/null", O_WRONLY);
		int err = open("/dev/null", O_WRONLY);
		if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
			_exit(126);
		if (o->fsize > 0) {
			struct rlimit rl = {(rlim_t)o->fsize, (rlim_t)o->fsize};
			signal(SIGXFSZ, SIG_IGN); /* writes then fail with EFBIG */
			if (setrlimit(RLIMIT_FSIZE, &rl) != 0)
				_exit(126);
		}
		if (o->path_first) {
			char path[8192];
			const char *old = getenv("PATH");
			snprintf(path, sizeof path, "%s:%s", o->path_first, old ? old : "/usr/bin:/bin");
			setenv("PATH", path, 1);
		}
		execv(cli_path(), (char *const *)argv);
		_exit(127);
	}
	close(go[0]);
	if (o->plant)
		o->plant(pid, o->ctx);
	ck_assert_int_eq(write(go[1], "g", 1), 1);
	close(go[1]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		ck_assert_int_eq(errno, EINTR);
	ck_assert_msg(!WIFEXITED(status) || WEXITSTATUS(status) != 127, "cannot run %s",
		      cli_path());
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* ---- the writer --------------------------------------------------------------------------- */

START_TEST(the_atomic_writer_replaces_a_file_whole)
{
	char dir[64], path[128], tmp[SW_ATOMIC_TMP_LEN(128)], prefix[160];
	make_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/out.csv", dir);
	put(path, "old\n");
	FILE *f = sw_atomic_open(path, tmp, sizeof tmp, NULL);
	ck_assert_ptr_nonnull(f);
	/* Hidden, beside the target, its extension kept, and not the target. */
	snprintf(prefix, sizeof prefix, "%s/.out.", dir);
	ck_assert_int_eq(strncmp(tmp, prefix, strlen(prefix)), 0);
	ck_assert_str_eq(tmp + strlen(tmp) - 4, ".csv");
	ck_assert(is_regular(tmp));
	fputs("new\n", f);
	ck_assert_str_eq(get(path), "old\n"); /* nothing visible before the commit */
	ck_assert_int_eq(sw_atomic_commit(f, tmp, path, NULL), SW_SUCCESS);
	ck_assert_str_eq(get(path), "new\n");
	ck_assert_int_eq(entries(dir), 1);

	/* Abandoned: the target keeps its content, the temporary is gone. */
	f = sw_atomic_open(path, tmp, sizeof tmp, NULL);
	ck_assert_ptr_nonnull(f);
	fputs("half", f);
	sw_atomic_abort(f, tmp);
	ck_assert_str_eq(get(path), "new\n");
	ck_assert_int_eq(entries(dir), 1);

	/* Two writers of one target at once get two temporaries. */
	char tmp2[sizeof tmp];
	f = sw_atomic_open(path, tmp, sizeof tmp, NULL);
	FILE *g = sw_atomic_open(path, tmp2, sizeof tmp2, NULL);
	ck_assert(f && g && strcmp(tmp, tmp2) != 0);
	sw_atomic_abort(f, tmp);
	sw_atomic_abort(g, tmp2);

	/* A file without an extension; a name too long for the buffer. */
	snprintf(path, sizeof path, "%s/plain", dir);
	f = sw_atomic_open(path, tmp, sizeof tmp, NULL);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(strncmp(tmp + strlen(dir), "/.plain.", 8), 0);
	ck_assert_int_eq(sw_atomic_commit(f, tmp, path, NULL), SW_SUCCESS);
	char small[8];
	ck_assert_ptr_null(sw_atomic_open(path, small, sizeof small, NULL));
	ck_assert_int_eq(errno, ENAMETOOLONG);
	ck_assert_int_eq(entries(dir), 2);
	rm_tree(dir);
}
END_TEST

START_TEST(the_atomic_writer_replaces_a_symlink_without_following_it)
{
	char dir[64], path[128], victim[128], tmp[SW_ATOMIC_TMP_LEN(128)];
	make_dir(dir, sizeof dir);
	snprintf(victim, sizeof victim, "%s/victim", dir);
	snprintf(path, sizeof path, "%s/out.svg", dir);
	put(victim, "precious\n");
	ck_assert_int_eq(symlink(victim, path), 0);
	FILE *f = sw_atomic_open(path, tmp, sizeof tmp, NULL);
	ck_assert_ptr_nonnull(f);
	fputs("<svg/>\n", f);
	ck_assert_int_eq(sw_atomic_commit(f, tmp, path, NULL), SW_SUCCESS);
	ck_assert_str_eq(get(victim), "precious\n");
	ck_assert(is_regular(path));
	ck_assert_str_eq(get(path), "<svg/>\n");
	rm_tree(dir);
}
END_TEST

START_TEST(the_atomic_writer_reports_failures_with_the_file_and_errno)
{
	char dir[64], path[128], tmp[SW_ATOMIC_TMP_LEN(128)];
	make_dir(dir, sizeof dir);
	sw_diag d;
	sw_diag_init(&d);
	/* A missing directory: no file, the path and "No such file or directory". */
	snprintf(path, sizeof path, "%s/missing/out.csv", dir);
	ck_assert_ptr_null(sw_atomic_open(path, tmp, sizeof tmp, &d));
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_str_eq(tmp, "");
	ck_assert_int_eq(d.count, 1);
	ck_assert_str_eq(d.entry[0].file, path);
	ck_assert_ptr_nonnull(strstr(d.entry[0].message, strerror(ENOENT)));

	/* The rename fails (a directory holds the name): the temporary is removed. */
	snprintf(path, sizeof path, "%s/taken", dir);
	ck_assert_int_eq(mkdir(path, 0777), 0);
	sw_diag_init(&d);
	FILE *f = sw_atomic_open(path, tmp, sizeof tmp, &d);
	ck_assert_ptr_nonnull(f);
	fputs("x\n", f);
	ck_assert_int_eq(sw_atomic_commit(f, tmp, path, &d), SW_EIO);
	ck_assert_int_eq(entries(dir), 1);
	ck_assert_int_eq(d.count, 1);
	ck_assert_str_eq(d.entry[0].file, path);
	ck_assert_ptr_nonnull(strstr(d.entry[0].message, strerror(EISDIR)));
	rm_tree(dir);
}
END_TEST

START_TEST(the_atomic_writer_creates_files_0666_less_the_umask)
{
	static const unsigned masks[] = {022, 077, 002, 0};
	char dir[64], path[128], tmp[SW_ATOMIC_TMP_LEN(128)];
	make_dir(dir, sizeof dir);
	snprintf(path, sizeof path, "%s/out.json", dir);
	mode_t old = umask(022);
	for (size_t k = 0; k < sizeof masks / sizeof masks[0]; k++) {
		umask((mode_t)masks[k]);
		FILE *f = sw_atomic_open(path, tmp, sizeof tmp, NULL);
		ck_assert_ptr_nonnull(f);
		ck_assert_int_eq(sw_atomic_commit(f, tmp, path, NULL), SW_SUCCESS);
		ck_assert_uint_eq(mode_of(path), 0666 & ~masks[k]);
	}
	umask(old);
	rm_tree(dir);
}
END_TEST

/* ---- the commands ------------------------------------------------------------------------- */

typedef struct {
	const char *fmt; /* symlink name, with %ld for the pid */
	const char *target;
} plant_ctx;

static void plant_symlink(pid_t pid, void *ctx)
{
	plant_ctx *p = ctx;
	char name[256];
	snprintf(name, sizeof name, p->fmt, (long)pid);
	ck_assert_int_eq(symlink(p->target, name), 0);
}

START_TEST(a_symlink_at_the_former_checkpoint_temporary_is_not_followed)
{
	char dir[64], victim[128], name[256], out[128];
	make_dir(dir, sizeof dir);
	snprintf(victim, sizeof victim, "%s/victim", dir);
	put(victim, "precious\n");
	/* run --checkpoint-every: DIR/checkpoint.swck.tmp */
	snprintf(out, sizeof out, "%s/run", dir);
	ck_assert_int_eq(mkdir(out, 0777), 0);
	snprintf(name, sizeof name, "%s/checkpoint.swck.tmp", out);
	ck_assert_int_eq(symlink(victim, name), 0);
	const char *run[] = {"swerve", "run", "-q", "-d", "2", "--checkpoint-every", "0.5",
			     "--halt-at", "1", "-o", out, "models/demo.xml", NULL};
	ck_assert_int_eq(run_cli(run, NULL), 1); /* halted as asked */
	ck_assert_str_eq(get(victim), "precious\n");
	snprintf(name, sizeof name, "%s/checkpoint.swck", out);
	ck_assert(is_regular(name));
	rm_tree(dir);
}
END_TEST

START_TEST(a_symlink_at_the_former_sweep_temporary_is_not_followed)
{
	char dir[64], victim[128], out[128], fmt[160];
	make_dir(dir, sizeof dir);
	snprintf(victim, sizeof victim, "%s/victim", dir);
	put(victim, "precious\n");
	/* sweep -o (and smc --csv, the same writer): PATH.tmp<pid>, planted for the pid swerve
	 * runs under before it starts. */
	snprintf(out, sizeof out, "%s/sweep.csv", dir);
	snprintf(fmt, sizeof fmt, "%s.tmp%%ld", out);
	plant_ctx p = {fmt, victim};
	run_opts o = {plant_symlink, &p, 0, NULL, NULL};
	const char *sweep[] = {"swerve", "sweep", "tests/data/coin.xml", "-p", "d0=1:2:1", "-n", "1",
			       "-P", "reach(walker, upper) <= t_end", "-j", "1", "-o", out, NULL};
	ck_assert_int_eq(run_cli(sweep, &o), 0);
	ck_assert_str_eq(get(victim), "precious\n");
	ck_assert(is_regular(out));
	ck_assert_int_eq(strncmp(get(out), "run,point,seed", 14), 0);
	rm_tree(dir);
}
END_TEST

START_TEST(a_symlink_at_the_former_video_temporary_is_not_followed)
{
	char dir[64], victim[128], name[256], out[128];
	make_dir(dir, sizeof dir);
	snprintf(victim, sizeof victim, "%s/victim", dir);
	put(victim, "precious\n");
	/* render --video: VIDEO.partial.EXT, written by ffmpeg.  A stand-in ffmpeg writes its last
	 * argument by name, as ffmpeg does (following a symlink there). */
	char bin[128];
	snprintf(bin, sizeof bin, "%s/bin", dir);
	ck_assert_int_eq(mkdir(bin, 0777), 0);
	snprintf(name, sizeof name, "%s/ffmpeg", bin);
	put(name, "#!/bin/sh\nfor a; do last=$a; done\nprintf 'FAKEVIDEO\\n' > \"$last\"\n");
	ck_assert_int_eq(chmod(name, 0755), 0);
	snprintf(out, sizeof out, "%s/video.mp4", dir);
	snprintf(name, sizeof name, "%s/video.mp4.partial.mp4", dir);
	ck_assert_int_eq(symlink(victim, name), 0);
	char svg[128];
	snprintf(svg, sizeof svg, "%s/still.svg", dir);
	run_opts v = {NULL, NULL, 0, NULL, bin};
	const char *render[] = {"swerve", "render", "-q", "-o", svg, "--video", out, "--fps", "2",
				"-d", "1", "models/demo.xml", NULL};
	ck_assert_int_eq(run_cli(render, &v), 0);
	ck_assert_str_eq(get(victim), "precious\n");
	ck_assert(is_regular(out));
	ck_assert_str_eq(get(out), "FAKEVIDEO\n");
	rm_tree(dir);
}
END_TEST

/* Every regular file under dir (one level of subdirectories) has mode 0666 & ~mask. */
static int check_modes(const char *dir, unsigned mask)
{
	DIR *d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	int n = 0;
	char path[600];
	for (struct dirent *e; (e = readdir(d)) != NULL;) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		struct stat st;
		ck_assert_int_eq(lstat(path, &st), 0);
		if (S_ISDIR(st.st_mode)) {
			n += check_modes(path, mask);
			continue;
		}
		ck_assert_msg((st.st_mode & 0777) == (0666 & ~mask), "%s: mode %03o, umask %03o",
			      path, (unsigned)(st.st_mode & 0777), mask);
		n++;
	}
	closedir(d);
	return n;
}

START_TEST(outputs_of_every_command_honour_the_umask)
{
	static const unsigned masks[] = {022, 077};
	mode_t old = umask(022);
	for (size_t k = 0; k < 2; k++) {
		char dir[64], a[128], b[128], c[128];
		make_dir(dir, sizeof dir);
		umask((mode_t)masks[k]);
		snprintf(a, sizeof a, "%s/run", dir);
		const char *run[] = {"swerve", "run", "-q", "-d", "2", "-o", a, "models/demo.xml",
				     NULL};
		ck_assert_int_eq(run_cli(run, NULL), 0);
		snprintf(a, sizeof a, "%s/ck", dir);
		const char *ck[] = {"swerve", "run", "-q", "-d", "2", "--checkpoint-every", "0.5",
				    "--halt-at", "1", "-o", a, "models/demo.xml", NULL};
		ck_assert_int_eq(run_cli(ck, NULL), 1);
		snprintf(a, sizeof a, "%s/p.svg", dir);
		snprintf(b, sizeof b, "%s/p.png", dir);
		const char *svg[] = {"swerve", "render", "-q", "-d", "2", "-o", a, "models/demo.xml",
				     NULL};
		const char *png[] = {"swerve", "render", "-q", "-d", "2", "-o", b, "models/demo.xml",
				     NULL};
		ck_assert_int_eq(run_cli(svg, NULL), 0);
		ck_assert_int_eq(run_cli(png, NULL), 0);
		snprintf(a, sizeof a, "%s/g.dot", dir);
		const char *graph[] = {"swerve", "graph", "-o", a, "automata/seek.xml", NULL};
		ck_assert_int_eq(run_cli(graph, NULL), 0);
		snprintf(a, sizeof a, "%s/s.csv", dir);
		const char *sweep[] = {"swerve", "sweep", "tests/data/coin.xml", "-p", "d0=1:2:1",
				       "-n", "1", "-P", "reach(walker, upper) <= t_end", "-j", "1",
				       "-o", a, NULL};
		ck_assert_int_eq(run_cli(sweep, NULL), 0);
		snprintf(a, sizeof a, "%s/export", dir);
		const char *exp[] = {"swerve", "export", "-o", a, "models/glm_barrier.xml", NULL};
		ck_assert_int_eq(run_cli(exp, NULL), 0);
		snprintf(c, sizeof c, "%s/imported.xml", dir);
		const char *imp[] = {"swerve", "import-steersuite", "-o", c,
				     "tests/data/steersuite/mixed.xml", NULL};
		ck_assert_int_eq(run_cli(imp, NULL), 0);
		/* 3 run outputs, the checkpoint, 2 pictures, the graph, the CSV, the import and
		 * at least 3 export files. */
		ck_assert_int_ge(check_modes(dir, masks[k]), 12);
		rm_tree(dir);
	}
	umask(old);
}
END_TEST

START_TEST(graph_output_is_all_or_nothing)
{
	char dir[64], out[128];
	make_dir(dir, sizeof dir);
	snprintf(out, sizeof out, "%s/seek.dot", dir);
	put(out, "old\n");
	/* The DOT text (over 200 bytes) cannot be written under a 64-byte file size limit. */
	run_opts lim = {NULL, NULL, 64, NULL, NULL};
	const char *graph[] = {"swerve", "graph", "-o", out, "automata/seek.xml", NULL};
	ck_assert_int_eq(run_cli(graph, &lim), 1);
	ck_assert_str_eq(get(out), "old\n");
	ck_assert_int_eq(entries(dir), 1); /* no temporary left */
	/* Without the limit the whole graph replaces the file. */
	ck_assert_int_eq(run_cli(graph, NULL), 0);
	ck_assert_int_eq(strncmp(get(out), "digraph \"seek\"", 14), 0);
	ck_assert_int_eq(entries(dir), 1);
	/* To a full standard output: a failure, not "written". */
	run_opts full = {NULL, NULL, 0, "/dev/full", NULL};
	const char *to_stdout[] = {"swerve", "graph", "automata/seek.xml", NULL};
	ck_assert_int_eq(run_cli(to_stdout, &full), 1);
	rm_tree(dir);
}
END_TEST

START_TEST(a_run_stopped_between_renames_leaves_no_old_summary)
{
	char dir[64], out[128], path[160], old_traj[1 << 16];
	make_dir(dir, sizeof dir);
	snprintf(out, sizeof out, "%s/run", dir);
	const char *first[] = {"swerve", "run", "-q", "-d", "2", "-o", out, "models/demo.xml", NULL};
	ck_assert_int_eq(run_cli(first, NULL), 0);
	snprintf(path, sizeof path, "%s/summary.json", out);
	ck_assert_ptr_nonnull(strstr(get(path), "\"complete\""));
	snprintf(path, sizeof path, "%s/trajectory.csv", out);
	snprintf(old_traj, sizeof old_traj, "%s", get(path));
	/* A directory at events.jsonl stops the commit after trajectory.csv has been renamed, as
	 * a kill between the two renames would. */
	snprintf(path, sizeof path, "%s/events.jsonl", out);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkdir(path, 0777), 0);
	snprintf(path, sizeof path, "%s/events.jsonl/keep", out);
	put(path, "x");
	const char *second[] = {"swerve", "run", "-q", "-d", "3", "-o", out, "models/demo.xml",
				NULL};
	ck_assert_int_eq(run_cli(second, NULL), 1);
	snprintf(path, sizeof path, "%s/trajectory.csv", out);
	ck_assert_str_ne(get(path), old_traj); /* the new trajectory is there ... */
	snprintf(path, sizeof path, "%s/summary.json", out);
	ck_assert_msg(access(path, F_OK) != 0, "an old summary.json outlived a partial commit");
	ck_assert_int_eq(entries(out), 2); /* ... beside no summary and no temporary */
	rm_tree(dir);
}
END_TEST

Suite *atomic_suite(void)
{
	Suite *s = suite_create("atomic");
	TCase *tc = tcase_create("atomic");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, the_atomic_writer_replaces_a_file_whole);
	tcase_add_test(tc, the_atomic_writer_replaces_a_symlink_without_following_it);
	tcase_add_test(tc, the_atomic_writer_reports_failures_with_the_file_and_errno);
	tcase_add_test(tc, the_atomic_writer_creates_files_0666_less_the_umask);
	tcase_add_test(tc, a_symlink_at_the_former_checkpoint_temporary_is_not_followed);
	tcase_add_test(tc, a_symlink_at_the_former_sweep_temporary_is_not_followed);
	tcase_add_test(tc, a_symlink_at_the_former_video_temporary_is_not_followed);
	tcase_add_test(tc, outputs_of_every_command_honour_the_umask);
	tcase_add_test(tc, graph_output_is_all_or_nothing);
	tcase_add_test(tc, a_run_stopped_between_renames_leaves_no_old_summary);
	suite_add_tcase(s, tc);
	return s;
}

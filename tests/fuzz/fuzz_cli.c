/* tests/fuzz/fuzz_cli.c - libFuzzer harness of the swerve command line (src/cli): the input is
 * an argument vector, one argument per line ('\n'; at most MAX_ARGS arguments of at most
 * MAX_ARG bytes), given after "swerve" to the CLI's own main() (compiled in as sw_cli_main, so
 * that the dispatch, every command and the help paths run in this process).
 *
 * What the commands may touch.  Each input runs in a fresh working folder inside this process's
 * private temporary folder (fuzz_files.h), holding small input files of its own (FIXTURES: a
 * scenario with a behaviour file and a signal, a scenario with a navigation field and a vector
 * field file, a SteerSuite test case, an automaton); the harness changes into it for the call
 * and back afterwards.  Inputs with an argument containing '/' or ".." are skipped, so every
 * path a command sees is a plain name in that folder: nothing can be read or written outside
 * it.  The environment points HOME, XDG_CACHE_HOME and TMPDIR into the private folder and PATH
 * at an empty folder (render --video then fails cleanly without starting ffmpeg), and the MPI
 * launcher's variables are removed.  stdin is /dev/null, stdout is discarded and stderr is
 * captured for the checks (sanitizer reports still go to the real stderr).
 *
 * Bounded work.  The fixtures are small (1 s runs of two agents at 0.1 s steps), and inputs are
 * skipped that could ask for much work: a number above MAX_NUMBER or a non-zero one below
 * MIN_NUMBER anywhere in an argument, more than one argument with ':' or ',' (parameter grids
 * and lists multiply runs), or a long option naming video frames (--frames, --video, or any
 * prefix of them).  What is left runs in milliseconds.
 *
 * Checked: the exit status is 0, 1 or 2 (cli.h); a non-zero status comes with a message on
 * stderr; no input file is changed (no command overwrites an input); no temporary file (a
 * hidden name, see src/core/atomic.c) is left behind; nothing but the working folder and the
 * cache folder appears in the private folder.  FUZZ_CLI_VERBOSE=1 in the environment prints
 * each command's exit status and the start of its stderr (to see what a corpus reaches). */
#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "fuzz.h"
#include "fuzz_files.h"

enum { MAX_ARGS = 24, MAX_ARG = 256 };
#define MAX_NUMBER 20.0
#define MIN_NUMBER 0.1

/* The CLI's main() (src/cli/main.c compiled with -Dmain=sw_cli_main). */
int sw_cli_main(int argc, char **argv);

/* Where sanitizer reports go (sanitizer/common_interface_defs.h); absent without sanitizers. */
void __sanitizer_set_report_fd(void *fd) __attribute__((weak));

/* LeakSanitizer's built-in suppressions (as tests/lsan.supp for `make asan`): fontconfig, used by
 * cairo for text in PNG pictures, keeps its caches until FcFini(), which a library cannot call. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libfontconfig.so\n";
}

static const struct fixture {
	const char *name, *text;
} fixtures[] = {
    {"s.xml",
     "<scenario name=\"s\">\n"
     "  <run duration=\"1\" step=\"0.1\" sample=\"0.5\" seed=\"3\"/>\n"
     "  <behaviours>\n"
     "    <use file=\"w.xml\"/>\n"
     "    <automaton name=\"blink\" kind=\"signal\">\n"
     "      <var name=\"c\" kind=\"clock\" init=\"0\"/>\n"
     "      <mode name=\"on\" initial=\"true\">\n"
     "        <transition to=\"off\" guard=\"c ge 0.5\"><reset var=\"c\">0</reset></transition>\n"
     "      </mode>\n"
     "      <mode name=\"off\"/>\n"
     "    </automaton>\n"
     "  </behaviours>\n"
     "  <world>\n"
     "    <target name=\"goal\" x=\"4\" y=\"0\" radius=\"0.5\"/>\n"
     "    <disc name=\"post\" x=\"2\" y=\"0.6\" radius=\"0.3\"/>\n"
     "    <signal name=\"lamp\" automaton=\"blink\"/>\n"
     "  </world>\n"
     "  <agent name=\"a\" x=\"0\" y=\"0\" behaviour=\"walker\"><bind param=\"goal\" "
     "value=\"goal\"/></agent>\n"
     "  <agent name=\"b\" x=\"0\" y=\"1\" target=\"goal\"><glm/></agent>\n"
     "</scenario>\n"},
    {"w.xml",
     "<automaton name=\"walker\">\n"
     "  <param name=\"goal\" kind=\"target\"/>\n"
     "  <mode name=\"go\" initial=\"true\">\n"
     "    <glm target=\"goal\"/>\n"
     "    <transition to=\"there\" guard=\"dist(goal) le 1\" label=\"arrive\"/>\n"
     "  </mode>\n"
     "  <mode name=\"there\" arrival=\"true\"/>\n"
     "</automaton>\n"},
    {"nav.xml",
     "<scenario name=\"nav\">\n"
     "  <run duration=\"1\" step=\"0.1\"/>\n"
     "  <world>\n"
     "    <target name=\"exit\" x=\"3\" y=\"0\"/>\n"
     "    <segment name=\"wall\" x1=\"1.5\" y1=\"-1\" x2=\"1.5\" y2=\"1\"/>\n"
     "    <navfield name=\"nav\" target=\"exit\" resolution=\"0.5\"/>\n"
     "    <vectorfield name=\"wind\" file=\"wind.txt\"/>\n"
     "  </world>\n"
     "  <agent name=\"a\" x=\"0\" y=\"0\" target=\"exit\"><glm field=\"nav\"/></agent>\n"
     "  <agent name=\"b\" x=\"0\" y=\"2\" target=\"exit\"><glm field=\"wind\"/></agent>\n"
     "</scenario>\n"},
    {"wind.txt", "swerve-vectorfield 1\norigin -1 -1\nspacing 2\nsize 3 3\n"
		 "1 0\n1 0\n1 0\n1 0\n1 0\n1 0\n1 0\n1 0\n1 0\n"},
    {"case.xml",
     "<SteerBenchTestCase xmlns=\"http://www.magix.ucla.edu/steerbench\">\n"
     "<header><version>1.0</version><name>c</name><worldBounds><xmin>-5</xmin><xmax>5</xmax>"
     "<ymin>0</ymin><ymax>0</ymax><zmin>-5</zmin><zmax>5</zmax></worldBounds></header>\n"
     "<agent><name>p</name><initialConditions><radius>0.5</radius><position><x>0</x><y>0</y>"
     "<z>0</z></position><direction><x>1</x><y>0</y><z>0</z></direction><speed>0</speed>"
     "</initialConditions><goalSequence><seekStaticTarget><targetLocation><x>2</x><y>0</y>"
     "<z>0</z></targetLocation><desiredSpeed>1</desiredSpeed><timeDuration>1</timeDuration>"
     "</seekStaticTarget></goalSequence></agent>\n"
     "</SteerBenchTestCase>\n"},
};
enum { N_FIXTURES = sizeof fixtures / sizeof fixtures[0] };

static char root[4200], work[4300], cache[4300], empty[4300], err_path[4300];
static int home_fd = -1, real_stderr = -1, null_fd = -1;

static void setup(void)
{
	const char *p = fuzz_private_dir();
	FUZZ_CHECK(p != NULL);
	snprintf(root, sizeof root, "%s", p);
	snprintf(work, sizeof work, "%s/work", root);
	snprintf(cache, sizeof cache, "%s/cache", root);
	snprintf(empty, sizeof empty, "%s/bin", root);
	snprintf(err_path, sizeof err_path, "%s/stderr.txt", root);
	home_fd = open(".", O_RDONLY | O_DIRECTORY);
	real_stderr = dup(STDERR_FILENO);
	null_fd = open("/dev/null", O_RDWR);
	FUZZ_CHECK(home_fd >= 0 && real_stderr >= 0 && null_fd >= 0);
	if (__sanitizer_set_report_fd)
		__sanitizer_set_report_fd((void *)(intptr_t)real_stderr);
	setenv("HOME", root, 1);
	setenv("XDG_CACHE_HOME", cache, 1);
	setenv("TMPDIR", root, 1);
	setenv("PATH", empty, 1);
	unsetenv("OMPI_COMM_WORLD_SIZE");
	unsetenv("PMIX_RANK");
	unsetenv("PMI_RANK");
}

/* 1 when some number in s (any substring strtod reads, starting at a digit or a point) is
 * above MAX_NUMBER or non-zero below MIN_NUMBER in magnitude. */
static int big_number(const char *s)
{
	for (const char *q = s; *q; q++) {
		if (!(*q >= '0' && *q <= '9') && *q != '.')
			continue;
		char *end = NULL;
		double v = strtod(q, &end);
		if (end == q)
			continue;
		v = v < 0 ? -v : v;
		if (!(v <= MAX_NUMBER) || (v != 0.0 && v < MIN_NUMBER))
			return 1;
		q = end - 1;
	}
	return 0;
}

/* 1 when arg is a long option naming video frames: --frames, --video or a prefix of one. */
static int frames_option(const char *arg)
{
	if (strncmp(arg, "--", 2) != 0)
		return 0;
	size_t n = strcspn(arg + 2, "=");
	return n > 0 && (strncmp(arg + 2, "frames", n) == 0 || strncmp(arg + 2, "video", n) == 0);
}

/* Every regular file in dir (recursively) has a name not starting with '.'. */
static int no_hidden(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return 1;
	int ok = 1;
	struct dirent *e;
	while (ok && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char path[8192];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		struct stat st;
		if (lstat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode))
			ok = no_hidden(path);
		else if (e->d_name[0] == '.') {
			fprintf(stderr, "left behind: %s\n", path);
			ok = 0;
		}
	}
	closedir(d);
	return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (home_fd < 0)
		setup();
	/* The argument vector: lines of the input. */
	if (size > MAX_ARGS * (MAX_ARG + 1))
		return 0;
	char *text = malloc(size + 1);
	FUZZ_CHECK(text != NULL);
	memcpy(text, data, size);
	text[size] = '\0';
	char *argv[MAX_ARGS + 2] = {"swerve"};
	int argc = 1, grids = 0, skip = 0;
	for (char *line = text; !skip && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		if (argc > MAX_ARGS || strlen(line) > MAX_ARG)
			skip = 1;
		else
			argv[argc++] = line;
		grids += strpbrk(line, ":,") != NULL;
		skip |= strchr(line, '/') || strstr(line, "..") || big_number(line) ||
			frames_option(line) || grids > 1;
		line = nl ? nl + 1 : line + strlen(line);
	}
	argv[argc] = NULL;
	if (skip) {
		free(text);
		return 0;
	}

	/* A fresh working folder with the fixtures. */
	FUZZ_CHECK(fuzz_clear_dir(root) == 0);
	FUZZ_CHECK(mkdir(work, 0700) == 0 && mkdir(cache, 0700) == 0 && mkdir(empty, 0700) == 0);
	FUZZ_CHECK(chdir(work) == 0);
	for (int k = 0; k < N_FIXTURES; k++)
		FUZZ_CHECK(fuzz_write_file(fixtures[k].name, fixtures[k].text,
					   strlen(fixtures[k].text)) == 0);

	/* getopt keeps a pointer into the previous argument vector when a command returned in the
	 * middle of a group of short options; optind = 0 makes glibc forget it (the commands set
	 * optind = 1, which does not). */
	static char *dummy[] = {"swerve", NULL};
	optind = 0;
	while (getopt(1, dummy, "") != -1)
		;
	/* The CLI's process-wide settings, as a new process starts with them. */
	cli_cmd = "swerve";
	cli_verbosity = 0;

	int err_fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	int saved_in = dup(STDIN_FILENO), saved_out = dup(STDOUT_FILENO);
	FUZZ_CHECK(err_fd >= 0 && saved_in >= 0 && saved_out >= 0);
	fflush(stdout);
	fflush(stderr);
	dup2(null_fd, STDIN_FILENO);
	dup2(null_fd, STDOUT_FILENO);
	dup2(err_fd, STDERR_FILENO);
	int code = sw_cli_main(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_in, STDIN_FILENO);
	dup2(saved_out, STDOUT_FILENO);
	dup2(real_stderr, STDERR_FILENO);
	close(saved_in);
	close(saved_out);
	clearerr(stdin);
	clearerr(stdout);
	clearerr(stderr);
	FUZZ_CHECK(fchdir(home_fd) == 0); /* before any check: libFuzzer writes crash inputs */
	struct stat st;
	FUZZ_CHECK(fstat(err_fd, &st) == 0);
	close(err_fd);

	if (getenv("FUZZ_CLI_VERBOSE")) { /* to see what the seeds reach */
		size_t n = 0;
		char *msg = fuzz_read_file(err_path, &n);
		fprintf(stderr, "exit %d:", code);
		for (int k = 1; k < argc; k++)
			fprintf(stderr, " %s", argv[k]);
		fprintf(stderr, "\n%.*s", msg ? (int)(n < 300 ? n : 300) : 0, msg ? msg : "");
		free(msg);
	}
	FUZZ_CHECK(code == 0 || code == 1 || code == 2);
	FUZZ_CHECK(code == 0 || st.st_size > 0); /* a failure says why */
	for (int k = 0; k < N_FIXTURES; k++) {
		char path[8192];
		snprintf(path, sizeof path, "%s/%s", work, fixtures[k].name);
		size_t len = 0;
		char *now = fuzz_read_file(path, &len);
		int same = now && len == strlen(fixtures[k].text) &&
			   memcmp(now, fixtures[k].text, len) == 0;
		if (!same)
			fprintf(stderr, "the input file %s was changed\n", fixtures[k].name);
		FUZZ_CHECK(same);
		free(now);
	}
	FUZZ_CHECK(no_hidden(work) && no_hidden(cache));
	DIR *d = opendir(root);
	FUZZ_CHECK(d != NULL);
	for (struct dirent *e; (e = readdir(d));)
		FUZZ_CHECK(strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
			   strcmp(e->d_name, "work") == 0 || strcmp(e->d_name, "cache") == 0 ||
			   strcmp(e->d_name, "bin") == 0 || strcmp(e->d_name, "stderr.txt") == 0);
	closedir(d);
	free(text);
	return 0;
}

/* tests/test_hostile.c - hostile and broken XML: entity bombs, external entities and DTDs (local
 * files and the network), deep nesting, a 100 MB file, endless streams, invalid UTF-8, NUL bytes,
 * truncated files; and the regressions the fuzzers found (tests/fuzz/).
 *
 * Each input must be rejected with SW_EINPUT, no object, and a one-line error naming the file
 * (and the line where the problem has one).  Hostile loads also run in a forked child that is
 * killed after GUARD_SECONDS (a hang guard, not a speed test: Check's own timeouts do not apply
 * under CK_FORK=no) and whose peak resident memory above its starting point is measured from
 * /proc/self/status, so that "bounded memory" is checked, not assumed. */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "swerve/core.h"
#include "swerve/expr.h"
#include "swerve/io.h"
#include "swerve/model.h"
#include "tests.h"

Suite *hostile_suite(void);

#define GUARD_SECONDS 60

/* ---- helpers ------------------------------------------------------------------------------ */

typedef enum { SCENARIO, AUTOMATON } kind;

/* Loads a document from memory (len bytes) or, with path, from that file; returns the status
 * and leaves the diagnostics in d.  The object, if any, is freed. */
static int load(kind k, const char *buf, size_t len, const char *path, sw_diag *d)
{
	sw_diag_init(d);
	int st;
	if (k == SCENARIO) {
		sw_model *m = (sw_model *)1;
		st = path ? sw_scenario_load(path, &m, d)
			  : sw_scenario_load_memory(buf, len, "hostile.xml", &m, d);
		ck_assert(st == SW_SUCCESS ? m != NULL : m == NULL);
		sw_model_free(m);
	} else {
		sw_automaton *a = (sw_automaton *)1;
		st = path ? sw_automaton_load(path, &a, d)
			  : sw_automaton_load_memory(buf, len, "hostile.xml", &a, d);
		ck_assert(st == SW_SUCCESS ? a != NULL : a == NULL);
		sw_automaton_free(a);
	}
	return st;
}

/* Asserts a rejection whose first error cites file (at line when line > 0) and contains
 * `needle`, and that no message spans lines. */
static void expect_rejected(int st, const sw_diag *d, const char *file, int line,
			    const char *needle)
{
	char msg[SW_DIAG_MSG + 300] = "";
	if (d->count > 0)
		sw_diag_format(d, 0, msg, sizeof msg);
	ck_assert_msg(st == SW_EINPUT, "status %d, expected SW_EINPUT (%s)", st, msg);
	ck_assert_int_gt(d->errors, 0);
	ck_assert_msg(strcmp(d->entry[0].file, file) == 0, "error cites '%s', expected '%s': %s",
		      d->entry[0].file, file, msg);
	if (line > 0)
		ck_assert_msg(d->entry[0].line == line, "error at line %d, expected %d: %s",
			      d->entry[0].line, line, msg);
	ck_assert_msg(strstr(d->entry[0].message, needle) != NULL, "'%s' not in: %s", needle, msg);
	for (int i = 0; i < d->count; i++)
		ck_assert_msg(strchr(d->entry[i].message, '\n') == NULL, "multi-line message: %s",
			      d->entry[i].message);
}

/* Resident-set figures of this process from /proc/self/status, in KiB (-1 when unknown). */
static long status_kib(const char *field)
{
	FILE *f = fopen("/proc/self/status", "r");
	if (!f)
		return -1;
	char line[256];
	long v = -1;
	size_t n = strlen(field);
	while (fgets(line, sizeof line, f))
		if (strncmp(line, field, n) == 0 && line[n] == ':') {
			v = strtol(line + n + 1, NULL, 10);
			break;
		}
	fclose(f);
	return v;
}

typedef struct {
	kind k;
	const char *buf;
	size_t len;
	const char *path;
} job;

/* Runs the load of j in a forked child with a GUARD_SECONDS alarm; checks that it returned
 * SW_EINPUT and that its peak resident memory grew by at most max_mib MiB.  The child measures
 * from its own start (the peak mark is reset through /proc/self/clear_refs when the kernel
 * allows it, else the baseline is the inherited peak, which only makes the check weaker). */
static void bounded(job j, long max_mib)
{
	int fd[2];
	ck_assert_int_eq(pipe(fd), 0);
	fflush(NULL);
	pid_t pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(fd[0]);
		alarm(GUARD_SECONDS);
		int cr = open("/proc/self/clear_refs", O_WRONLY);
		if (cr >= 0) {
			if (write(cr, "5", 1) != 1) { /* resets VmHWM to the current VmRSS */
			}
			close(cr);
		}
		long before = status_kib("VmHWM");
		static sw_diag d;
		int st = load(j.k, j.buf, j.len, j.path, &d);
		long after = status_kib("VmHWM");
		long r[2] = {st, before >= 0 && after >= 0 ? after - before : -1};
		if (write(fd[1], r, sizeof r) != (ssize_t)sizeof r)
			_exit(3);
		_exit(0);
	}
	close(fd[1]);
	long r[2] = {-1, -1};
	ssize_t got = read(fd[0], r, sizeof r);
	close(fd[0]);
	int ws = 0;
	ck_assert_int_eq(waitpid(pid, &ws, 0), pid);
	ck_assert_msg(
	    !WIFSIGNALED(ws), "the load died of signal %d (%s)", WIFSIGNALED(ws) ? WTERMSIG(ws) : 0,
	    WIFSIGNALED(ws) && WTERMSIG(ws) == SIGALRM ? "it ran over the guard time" : "a crash");
	ck_assert(WIFEXITED(ws) && WEXITSTATUS(ws) == 0 && got == (ssize_t)sizeof r);
	ck_assert_int_eq(r[0], SW_EINPUT);
	if (r[1] >= 0)
		ck_assert_msg(r[1] <= max_mib * 1024, "peak memory grew by %ld KiB (limit %ld MiB)",
			      r[1], max_mib);
}

/* A fresh temporary directory for files written by a test (removed by cleanup()). */
static char tmpdir[64];

static const char *temp_path(const char *name)
{
	static char path[4][128];
	static int next;
	if (!tmpdir[0]) {
		snprintf(tmpdir, sizeof tmpdir, "/tmp/swerve_hostile_XXXXXX");
		ck_assert_ptr_nonnull(mkdtemp(tmpdir));
	}
	char *p = path[next++ % 4];
	snprintf(p, sizeof path[0], "%s/%s", tmpdir, name);
	return p;
}

static void write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

static void cleanup(void)
{
	if (!tmpdir[0])
		return;
	static const char *names[] = {"secret.txt", "evil.dtd", "big.xml", "doc.xml"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		char p[128];
		snprintf(p, sizeof p, "%s/%s", tmpdir, names[i]);
		unlink(p);
	}
	rmdir(tmpdir);
	tmpdir[0] = '\0';
}

/* A valid scenario and automaton to start from. */
static const char good_scenario[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
				    "<scenario name=\"ok\">\n"
				    "  <run duration=\"2\" step=\"0.25\"/>\n"
				    "  <world>\n"
				    "    <target name=\"goal\" x=\"10\" y=\"0\"/>\n"
				    "  </world>\n"
				    "  <agent name=\"walker\" x=\"0\" y=\"0\" target=\"goal\"/>\n"
				    "</scenario>\n";

static const char good_automaton[] = "<?xml version=\"1.0\"?>\n"
				     "<automaton name=\"idle\">\n"
				     "  <var name=\"z\" kind=\"real\" init=\"1\"/>\n"
				     "  <mode name=\"rest\">\n"
				     "    <flow var=\"z\">-z</flow>\n"
				     "  </mode>\n"
				     "</automaton>\n";

START_TEST(valid_documents_load)
{
	/* The starting points are valid, so every rejection below is the hostile part's doing. */
	sw_diag d;
	ck_assert_int_eq(load(SCENARIO, good_scenario, strlen(good_scenario), NULL, &d),
			 SW_SUCCESS);
	ck_assert_int_eq(load(AUTOMATON, good_automaton, strlen(good_automaton), NULL, &d),
			 SW_SUCCESS);
}
END_TEST

/* ---- entities and DTDs ------------------------------------------------------------------ */

/* The classic billion laughs: 10 levels of 10 references, 10^9 "lol"s (3 GB) if expanded. */
static char *billion_laughs(const char *root)
{
	size_t cap = 4096, n = 0;
	char *s = malloc(cap);
	ck_assert_ptr_nonnull(s);
	n += (size_t)snprintf(s + n, cap - n, "<?xml version=\"1.0\"?>\n<!DOCTYPE %s [\n", root);
	n += (size_t)snprintf(s + n, cap - n, "  <!ENTITY lol0 \"lol\">\n");
	for (int i = 1; i <= 9; i++) {
		n += (size_t)snprintf(s + n, cap - n, "  <!ENTITY lol%d \"", i);
		for (int k = 0; k < 10; k++)
			n += (size_t)snprintf(s + n, cap - n, "&lol%d;", i - 1);
		n += (size_t)snprintf(s + n, cap - n, "\">\n");
	}
	n += (size_t)snprintf(s + n, cap - n, "]>\n<%s name=\"&lol9;\"/>\n", root);
	ck_assert_uint_lt(n, cap);
	return s;
}

START_TEST(billion_laughs_is_refused_at_the_doctype)
{
	static const struct {
		kind k;
		const char *root;
	} cases[] = {{SCENARIO, "scenario"}, {AUTOMATON, "automaton"}};
	for (size_t i = 0; i < 2; i++) {
		char *doc = billion_laughs(cases[i].root);
		sw_diag d;
		int st = load(cases[i].k, doc, strlen(doc), NULL, &d);
		expect_rejected(st, &d, "hostile.xml", 2, "<!DOCTYPE ...>) are not allowed");
		ck_assert_int_eq(d.count, 1); /* nothing after the refusal: the rest is not read */
		bounded((job){cases[i].k, doc, strlen(doc), NULL}, 16);
		/* The same from a file. */
		const char *path = temp_path("doc.xml");
		write_file(path, doc, strlen(doc));
		st = load(cases[i].k, NULL, 0, path, &d);
		expect_rejected(st, &d, path, 2, "<!DOCTYPE");
		bounded((job){cases[i].k, NULL, 0, path}, 16);
		free(doc);
	}
	/* Quadratic blow-up: one 64 KiB entity referenced 4096 times (256 MiB if expanded). */
	size_t big = 65536, refs = 4096, len = big + 6 * refs + 256;
	char *doc = malloc(len);
	ck_assert_ptr_nonnull(doc);
	size_t n = (size_t)snprintf(doc, len,
				    "<?xml version=\"1.0\"?>\n<!DOCTYPE scenario [<!ENTITY a \"");
	memset(doc + n, 'a', big);
	n += big;
	n += (size_t)snprintf(doc + n, len - n, "\">]>\n<scenario name=\"");
	for (size_t k = 0; k < refs; k++)
		n += (size_t)snprintf(doc + n, len - n, "&a;");
	n += (size_t)snprintf(doc + n, len - n, "\"/>\n");
	sw_diag d;
	expect_rejected(load(SCENARIO, doc, n, NULL, &d), &d, "hostile.xml", 2, "<!DOCTYPE");
	bounded((job){SCENARIO, doc, n, NULL}, 16);
	free(doc);
	cleanup();
}
END_TEST

/* A listening TCP socket on 127.0.0.1 (non-blocking); stores its port. */
static int listener(int *port)
{
	int s = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_ge(s, 0);
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = 0;
	ck_assert_int_eq(bind(s, (struct sockaddr *)&a, sizeof a), 0);
	ck_assert_int_eq(listen(s, 8), 0);
	socklen_t al = sizeof a;
	ck_assert_int_eq(getsockname(s, (struct sockaddr *)&a, &al), 0);
	*port = ntohs(a.sin_port);
	ck_assert_int_ne(fcntl(s, F_SETFL, O_NONBLOCK), -1);
	return s;
}

START_TEST(external_entities_and_dtds_are_never_fetched)
{
	/* A local file holding a secret, and a DTD that would declare an entity for it. */
	const char *secret = "TOPSECRET-4c1d";
	char secret_path[128], dtd_path[128];
	snprintf(secret_path, sizeof secret_path, "%s", temp_path("secret.txt"));
	write_file(secret_path, secret, strlen(secret));
	snprintf(dtd_path, sizeof dtd_path, "%s", temp_path("evil.dtd"));
	char dtd[512];
	snprintf(dtd, sizeof dtd, "<!ENTITY secret SYSTEM \"file://%s\">\n", secret_path);
	write_file(dtd_path, dtd, strlen(dtd));
	int port = 0, sock = listener(&port);

	char docs[8][1024];
	int nd = 0;
	/* external general entity: a local file, by URL and by plain path */
	snprintf(docs[nd++], sizeof docs[0],
		 "<?xml version=\"1.0\"?>\n<!DOCTYPE scenario [<!ENTITY s SYSTEM \"file://%s\">]>\n"
		 "<scenario name=\"&s;\"/>\n",
		 secret_path);
	snprintf(docs[nd++], sizeof docs[0],
		 "<?xml version=\"1.0\"?>\n<!DOCTYPE scenario [<!ENTITY s SYSTEM \"%s\">]>\n"
		 "<scenario name=\"&s;\"/>\n",
		 secret_path);
	/* external DTD (local, and over http) and external parameter entity */
	snprintf(docs[nd++], sizeof docs[0],
		 "<?xml version=\"1.0\"?>\n<!DOCTYPE scenario SYSTEM \"%s\">\n"
		 "<scenario name=\"&secret;\"/>\n",
		 dtd_path);
	snprintf(docs[nd++], sizeof docs[0],
		 "<?xml version=\"1.0\"?>\n<!DOCTYPE scenario SYSTEM "
		 "\"http://127.0.0.1:%d/evil.dtd\">\n<scenario name=\"&secret;\"/>\n",
		 port);
	snprintf(docs[nd++], sizeof docs[0],
		 "<?xml version=\"1.0\"?>\n<!DOCTYPE scenario [<!ENTITY %% p SYSTEM "
		 "\"http://127.0.0.1:%d/p.dtd\"> %%p;]>\n<scenario name=\"x\"/>\n",
		 port);
	snprintf(docs[nd++], sizeof docs[0],
		 "<?xml version=\"1.0\"?>\n<!DOCTYPE scenario [<!ENTITY s SYSTEM "
		 "\"http://127.0.0.1:%d/s.txt\">]>\n<scenario name=\"&s;\"/>\n",
		 port);
	snprintf(docs[nd++], sizeof docs[0],
		 "<?xml version=\"1.0\"?>\n<!DOCTYPE scenario PUBLIC \"-//X//Y//EN\" "
		 "\"http://127.0.0.1:%d/pub.dtd\">\n<scenario name=\"x\"/>\n",
		 port);
	for (int i = 0; i < nd; i++)
		for (int k = 0; k < 2; k++) {
			kind kk = k == 0 ? SCENARIO : AUTOMATON;
			sw_diag d;
			int st = load(kk, docs[i], strlen(docs[i]), NULL, &d);
			expect_rejected(st, &d, "hostile.xml", 2, "<!DOCTYPE");
			for (int e = 0; e < d.count; e++)
				ck_assert_msg(strstr(d.entry[e].message, secret) == NULL,
					      "the secret leaked: %s", d.entry[e].message);
		}
	/* XInclude is not processed: the element is unknown, nothing is included. */
	char xi[1024];
	snprintf(xi, sizeof xi,
		 "<?xml version=\"1.0\"?>\n<scenario name=\"x\" "
		 "xmlns:xi=\"http://www.w3.org/2001/XInclude\">\n"
		 "  <xi:include href=\"%s\" parse=\"text\"/>\n"
		 "  <xi:include href=\"http://127.0.0.1:%d/inc.xml\"/>\n"
		 "  <agent name=\"a\" x=\"0\" y=\"0\"/>\n</scenario>\n",
		 secret_path, port);
	sw_diag d;
	int st = load(SCENARIO, xi, strlen(xi), NULL, &d);
	ck_assert_int_eq(st, SW_EINPUT);
	for (int e = 0; e < d.count; e++)
		ck_assert_msg(strstr(d.entry[e].message, secret) == NULL, "the secret leaked: %s",
			      d.entry[e].message);
	/* Nobody connected to the listener: no network access was even attempted. */
	int c = accept(sock, NULL, NULL);
	ck_assert_msg(c < 0 && (errno == EAGAIN || errno == EWOULDBLOCK),
		      "the loader connected to 127.0.0.1:%d", port);
	close(sock);
	cleanup();
}
END_TEST

/* ---- size and depth ------------------------------------------------------------------------- */

START_TEST(deep_nesting_is_rejected_with_a_line)
{
	/* 100000 nested elements: libxml2's depth limit (256 without XML_PARSE_HUGE, which swerve
	 * never sets) stops the parse; the walk and the schema are never reached. */
	size_t depth = 100000, cap = depth * 12 + 64;
	char *doc = malloc(cap);
	ck_assert_ptr_nonnull(doc);
	size_t n = (size_t)snprintf(doc, cap, "<?xml version=\"1.0\"?>\n<scenario>\n");
	for (size_t i = 0; i < depth; i++)
		n += (size_t)snprintf(doc + n, cap - n, "<agent>");
	sw_diag d;
	expect_rejected(load(SCENARIO, doc, n, NULL, &d), &d, "hostile.xml", 3, "malformed XML");
	ck_assert_ptr_nonnull(strstr(d.entry[0].message, "depth"));
	bounded((job){SCENARIO, doc, n, NULL}, 32);
	bounded((job){AUTOMATON, doc, n, NULL}, 32);
	/* Nesting just under the parser's limit reaches the schema and the walk: clean errors. */
	n = (size_t)snprintf(doc, cap, "<?xml version=\"1.0\"?>\n<automaton name=\"a\">\n");
	for (size_t i = 0; i < 250; i++)
		n += (size_t)snprintf(doc + n, cap - n, "<mode name=\"m%zu\">\n", i);
	for (size_t i = 0; i < 250; i++)
		n += (size_t)snprintf(doc + n, cap - n, "</mode>");
	n += (size_t)snprintf(doc + n, cap - n, "</automaton>\n");
	ck_assert_int_eq(load(AUTOMATON, doc, n, NULL, &d), SW_EINPUT);
	ck_assert_int_gt(d.entry[0].line, 0);
	free(doc);
}
END_TEST

START_TEST(a_100_mb_file_is_refused_before_it_is_read)
{
	/* A well-formed 100 MB scenario: the valid document with a 100 MB comment inside. */
	const char *path = temp_path("big.xml");
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	const char *split = strstr(good_scenario, "  <run");
	fwrite(good_scenario, 1, (size_t)(split - good_scenario), f);
	fputs("<!--", f);
	static char block[1 << 16];
	memset(block, 'x', sizeof block);
	size_t total = (size_t)100 << 20;
	for (size_t w = 0; w < total; w += sizeof block)
		ck_assert_uint_eq(fwrite(block, 1, sizeof block, f), sizeof block);
	fputs("-->\n", f);
	fputs(split, f);
	ck_assert_int_eq(fclose(f), 0);
	sw_diag d;
	expect_rejected(load(SCENARIO, NULL, 0, path, &d), &d, path, 0, "too large");
	ck_assert_ptr_nonnull(strstr(d.entry[0].message, "at most 33554432 bytes"));
	ck_assert_int_eq(d.count, 1);
	bounded((job){SCENARIO, NULL, 0, path}, 8); /* refused from its size: nothing read */
	bounded((job){AUTOMATON, NULL, 0, path}, 8);
	unlink(path);
	cleanup();
	/* An endless stream is not a regular file: refused before a byte is read (test_bounds.c
	 * has FIFOs and directories). */
	expect_rejected(load(SCENARIO, NULL, 0, "/dev/zero", &d), &d, "/dev/zero", 0,
			"not a regular file");
	bounded((job){AUTOMATON, NULL, 0, "/dev/zero"}, 8);
	/* A document in memory over the limit (the buffer is not touched past its size check). */
	size_t big = SW_IO_MAX_BYTES + 1;
	char *mem = malloc(big);
	ck_assert_ptr_nonnull(mem);
	memcpy(mem, good_scenario, sizeof good_scenario - 1);
	expect_rejected(load(SCENARIO, mem, big, NULL, &d), &d, "hostile.xml", 0, "too large");
	free(mem);
}
END_TEST

START_TEST(duplicate_names_among_many_records_are_each_reported)
{
	/* 20000 discs (names checked by sorting, not pairwise); 'd7' again on the disc at index
	 * 12000 and at the last one, 'd9' once more: three errors, in file order, each citing
	 * the line of the first disc of that name. */
	int n = 20000, header = 5; /* the first disc is on line 6 */
	size_t cap = (size_t)n * 64 + 512, len = 0;
	char *doc = malloc(cap);
	ck_assert_ptr_nonnull(doc);
	len += (size_t)snprintf(doc + len, cap - len,
				"<?xml version=\"1.0\"?>\n<scenario name=\"many\">\n"
				"  <run duration=\"1\" step=\"0.25\"/>\n  <world>\n"
				"    <target name=\"goal\" x=\"-10\" y=\"0\"/>\n");
	for (int i = 0; i < n; i++) {
		int id = i == 12000 || i == n - 1 ? 7 : i == 15000 ? 9 : i;
		len +=
		    (size_t)snprintf(doc + len, cap - len,
				     "    <disc name=\"d%d\" x=\"%d\" y=\"%d\" radius=\"0.1\"/>\n",
				     id, 10 + i % 300, i / 300);
	}
	len +=
	    (size_t)snprintf(doc + len, cap - len,
			     "  </world>\n  <agent name=\"w\" x=\"0\" y=\"0\" target=\"goal\"/>\n"
			     "</scenario>\n");
	sw_diag d;
	ck_assert_int_eq(load(SCENARIO, doc, len, NULL, &d), SW_EINPUT);
	ck_assert_int_eq(d.errors, 3);
	static const struct {
		int index, first;
		const char *name;
	} want[] = {{12000, 7, "d7"}, {15000, 9, "d9"}, {19999, 7, "d7"}};
	for (int k = 0; k < 3; k++) {
		char text[128];
		snprintf(text, sizeof text,
			 "obstacle name '%s' is already used (line %d); expected a unique name",
			 want[k].name, header + 1 + want[k].first);
		ck_assert_int_eq(d.entry[k].line, header + 1 + want[k].index);
		ck_assert_str_eq(d.entry[k].message, text);
	}
	free(doc);
}
END_TEST

/* ---- encodings, NUL bytes, truncation ------------------------------------------------------- */

START_TEST(invalid_utf8_is_rejected_at_its_line)
{
	/* Each sequence is put into the agent's name on line 7 of the valid scenario. */
	static const char *bad[] = {
	    "\xC3\x28",         /* a lead byte without its continuation */
	    "\x80",             /* a lone continuation byte */
	    "\xC0\xAF",         /* overlong encoding of '/' */
	    "\xED\xA0\x80",     /* a UTF-16 surrogate */
	    "\xF4\x90\x80\x80", /* beyond U+10FFFF */
	    "\xFF\xFE",         /* bytes that never occur in UTF-8 */
	    "\xE2\x82",         /* a truncated three-byte sequence */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char doc[1024];
		const char *at = strstr(good_scenario, "walker");
		int n = snprintf(doc, sizeof doc, "%.*s%s%s", (int)(at - good_scenario),
				 good_scenario, bad[i], at);
		sw_diag d;
		expect_rejected(load(SCENARIO, doc, (size_t)n, NULL, &d), &d, "hostile.xml", 7,
				"malformed XML");
	}
	/* A document that declares another encoding than its bytes. */
	char doc[1024];
	int n = snprintf(doc, sizeof doc, "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n%s",
			 strchr(good_scenario, '\n') + 1);
	sw_diag d;
	ck_assert_int_eq(load(SCENARIO, doc, (size_t)n, NULL, &d), SW_EINPUT);
	ck_assert_int_gt(d.errors, 0);
}
END_TEST

START_TEST(encoding_errors_reach_the_diagnostics_not_stderr)
{
	/* Bytes that are not Shift JIS: libxml2 raises the conversion error without a parser
	 * context, i.e. to the thread's default handler (stderr) unless the loader catches it. */
	static const char doc[] = "<?xml version=\"1.0\" encoding=\"SHIFT_JIS\"?>\n"
				  "<scenario name=\"a\x9b\x68\xff\xfe\"/>\n";
	fflush(stderr);
	int saved = dup(STDERR_FILENO);
	FILE *cap = tmpfile();
	ck_assert(saved >= 0 && cap != NULL);
	dup2(fileno(cap), STDERR_FILENO);
	sw_diag d;
	int st = load(SCENARIO, doc, sizeof doc - 1, NULL, &d);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	long printed = ftell(cap) > 0 ? ftell(cap) : (fseek(cap, 0, SEEK_END), ftell(cap));
	fclose(cap);
	expect_rejected(st, &d, "hostile.xml", 0, "malformed XML");
	ck_assert_msg(printed == 0, "libxml2 printed %ld bytes to stderr", printed);
	int named = 0;
	for (int i = 0; i < d.count; i++)
		named += strstr(d.entry[i].message, "conversion failed") != NULL;
	ck_assert_int_gt(named, 0);
}
END_TEST

START_TEST(nul_bytes_are_rejected_at_their_position)
{
	/* A NUL inside an attribute value (line 3), between elements, and at the very end. */
	size_t len = sizeof good_scenario - 1;
	static const char *anchors[] = {"2\" step", "  <world>", NULL};
	static const int lines[] = {3, 4, 9};
	for (size_t i = 0; i < 3; i++) {
		char doc[1024];
		size_t at =
		    anchors[i] ? (size_t)(strstr(good_scenario, anchors[i]) - good_scenario) : len;
		memcpy(doc, good_scenario, at);
		doc[at] = '\0';
		memcpy(doc + at + 1, good_scenario + at, len - at);
		sw_diag d;
		expect_rejected(load(SCENARIO, doc, len + 1, NULL, &d), &d, "hostile.xml", lines[i],
				"NUL byte");
		ck_assert_int_gt(d.entry[0].column, 0);
		expect_rejected(load(AUTOMATON, doc, len + 1, NULL, &d), &d, "hostile.xml",
				lines[i], "NUL byte");
	}
	/* UTF-16 documents legitimately contain NUL bytes and are still read. */
	char text[1024], u16[2048];
	snprintf(text, sizeof text, "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n%s",
		 strchr(good_scenario, '\n') + 1);
	size_t n = 0;
	u16[n++] = '\xFF'; /* byte order mark, little endian */
	u16[n++] = '\xFE';
	for (const char *p = text; *p; p++) {
		u16[n++] = *p;
		u16[n++] = '\0';
	}
	sw_diag d;
	int st = load(SCENARIO, u16, n, NULL, &d);
	char msg[SW_DIAG_MSG + 300] = "";
	if (d.count)
		sw_diag_format(&d, 0, msg, sizeof msg);
	ck_assert_msg(st == SW_SUCCESS, "a UTF-16 document was refused: %s", msg);
}
END_TEST

START_TEST(truncated_files_are_rejected_with_a_line)
{
	/* Every prefix of a real model that stops before its root element closes. */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = fopen("models/demo.xml", "rb");
	ck_assert_ptr_nonnull(f);
	char chunk[4096];
	size_t got;
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
		buf = realloc(buf, len + got);
		ck_assert_ptr_nonnull(buf);
		memcpy(buf + len, chunk, got);
		len += got;
	}
	fclose(f);
	const char *end = NULL;
	for (const char *p = buf; p && (size_t)(p - buf) < len; p++) {
		p = memchr(p, '<', len - (size_t)(p - buf));
		if (!p)
			break;
		if (strncmp(p, "</scenario>", 11) == 0)
			end = p;
	}
	ck_assert_ptr_nonnull(end);
	size_t stop = (size_t)(end - buf) + 10; /* '>' missing: still truncated */
	const char *path = temp_path("doc.xml");
	int tested = 0;
	for (size_t cut = 1; cut <= stop; cut += cut < 200 ? 1 : 37) {
		write_file(path, buf, cut);
		sw_diag d;
		int st = load(SCENARIO, NULL, 0, path, &d);
		expect_rejected(st, &d, path, 0, "");
		int lines = 1;
		for (size_t k = 0; k < cut; k++)
			lines += buf[k] == '\n';
		ck_assert_msg(d.entry[0].line >= 1 && d.entry[0].line <= lines,
			      "cut at %zu: error at line %d of %d", cut, d.entry[0].line, lines);
		tested++;
	}
	ck_assert_int_gt(tested, 100);
	free(buf);
	cleanup();
}
END_TEST

/* ---- regressions found by the fuzzers (inputs kept in tests/fuzz/corpus/) ------------------ */

START_TEST(fuzz_negation_right_of_power_prints_without_parentheses)
{
	/* tests/fuzz/corpus/expr/crash-pow-neg-nesting: "2^-2^-...": the printer put each
	 * negation in parentheses, so the printed text nested deeper than the original and a text
	 * near the nesting limit did not parse back. */
	char text[512];
	size_t n = 0;
	int reps = SW_EXPR_MAX_NESTING / 2 - 1;
	for (int i = 0; i < reps; i++)
		n += (size_t)snprintf(text + n, sizeof text - n, "2^-");
	snprintf(text + n, sizeof text - n, "2");
	sw_expr_ast *a = NULL, *b = NULL;
	ck_assert_int_eq(sw_expr_ast_parse(text, NULL, NULL, NULL, &a), SW_SUCCESS);
	char printed[512];
	int len = sw_expr_ast_print(a, SW_EXPR_SYNTAX_PLAIN, printed, sizeof printed);
	ck_assert_int_lt(len, (int)sizeof printed);
	ck_assert_str_eq(printed, text);
	ck_assert_int_eq(sw_expr_ast_parse(printed, NULL, NULL, NULL, &b), SW_SUCCESS);
	ck_assert(sw_expr_ast_equal(a, b));
	/* The meaning is kept: 2^-(2^-2) = 2^-0.25. */
	sw_expr_ast_free(a);
	sw_expr_ast_free(b);
	sw_expr *e = NULL;
	ck_assert_int_eq(sw_expr_compile("2^-2^-2", NULL, NULL, NULL, &e), SW_SUCCESS);
	ck_assert_double_eq_tol(sw_expr_eval(e, NULL, NULL), 0.8408964152537145, 1e-15);
	sw_expr_free(e);
}
END_TEST

Suite *hostile_suite(void)
{
	Suite *s = suite_create("hostile");
	TCase *tc = tcase_create("xml");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, valid_documents_load);
	tcase_add_test(tc, billion_laughs_is_refused_at_the_doctype);
	tcase_add_test(tc, external_entities_and_dtds_are_never_fetched);
	tcase_add_test(tc, deep_nesting_is_rejected_with_a_line);
	tcase_add_test(tc, a_100_mb_file_is_refused_before_it_is_read);
	tcase_add_test(tc, duplicate_names_among_many_records_are_each_reported);
	tcase_add_test(tc, invalid_utf8_is_rejected_at_its_line);
	tcase_add_test(tc, encoding_errors_reach_the_diagnostics_not_stderr);
	tcase_add_test(tc, nul_bytes_are_rejected_at_their_position);
	tcase_add_test(tc, truncated_files_are_rejected_with_a_line);
	suite_add_tcase(s, tc);
	TCase *fz = tcase_create("fuzz regressions");
	tcase_add_test(fz, fuzz_negation_right_of_power_prints_without_parentheses);
	suite_add_tcase(s, fz);
	return s;
}

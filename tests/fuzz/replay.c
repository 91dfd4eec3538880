/* tests/fuzz/replay.c - runs a fuzz harness over files without libFuzzer.
 *
 * Linked with one harness (fuzz_*.c) by the normal build (gcc), so that `make test` and
 * `make asan` replay the seed corpus and every crash input kept as a regression file.  Each
 * argument is a file or a directory (its regular files, in name order, not recursive).  The
 * harness aborts on a broken guarantee; this driver exits 1 when a file cannot be read. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* Reads the whole file at path; returns NULL (with a message) when it cannot. */
static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return NULL;
	}
	size_t cap = 4096, n = 0;
	uint8_t *data = malloc(cap);
	while (data) {
		n += fread(data + n, 1, cap - n, f);
		if (n < cap)
			break;
		uint8_t *p = realloc(data, cap * 2);
		if (!p) {
			free(data);
			data = NULL;
			break;
		}
		data = p;
		cap *= 2;
	}
	int bad = ferror(f);
	fclose(f);
	if (!data || bad) {
		fprintf(stderr, "%s: cannot read\n", path);
		free(data);
		return NULL;
	}
	*len = n;
	return data;
}

static int run_file(const char *path)
{
	size_t len = 0;
	uint8_t *data = slurp(path, &len);
	if (!data)
		return 1;
	/* Copied into a buffer of the exact size, as libFuzzer does, so that ASan sees any read
	 * past the end. */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact) {
		free(data);
		return 1;
	}
	memcpy(exact, data, len);
	free(data);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
	int files = 0, failed = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			failed++;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			failed += run_file(argv[i]);
			files++;
			continue;
		}
		struct dirent **list = NULL;
		int n = scandir(argv[i], &list, NULL, by_name);
		if (n < 0) {
			perror(argv[i]);
			failed++;
			continue;
		}
		for (int k = 0; k < n; k++) {
			char path[4096];
			snprintf(path, sizeof path, "%s/%s", argv[i], list[k]->d_name);
			if (list[k]->d_name[0] != '.' && stat(path, &st) == 0 &&
			    S_ISREG(st.st_mode)) {
				failed += run_file(path);
				files++;
			}
			free(list[k]);
		}
		free(list);
	}
	printf("%s: %d inputs replayed, %d unreadable\n", argv[0], files, failed);
	return failed == 0 && files > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

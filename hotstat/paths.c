// SPDX-License-Identifier: GPL-2.0
/*
 * hotstat: inode number -> path. The kernel lists inode numbers only; the
 * mount is walked once (regular files, not crossing into other mounts) and
 * the result kept sorted for lookups. A file with several hard links gets
 * the smallest of its paths; a file created after the walk, or unlinked, has
 * none.
 */
#define _GNU_SOURCE
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hotstat.h"

struct hs_path {
	uint64_t ino;
	char *path;
};

struct hs_paths {
	struct hs_path *v;
	size_t n, cap;
	unsigned long long dev;
	int oom;
};

/* nftw() passes no context */
static struct hs_paths *walking;

static int visit(const char *path, const struct stat *st, int type,
		 struct FTW *ftw)
{
	struct hs_paths *p = walking;

	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode) ||
	    (unsigned long long)st->st_dev != p->dev)
		return 0;
	if (p->n == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 1024;
		struct hs_path *v = realloc(p->v, cap * sizeof(*v));

		if (!v) {
			p->oom = 1;
			return 1;
		}
		p->v = v;
		p->cap = cap;
	}
	p->v[p->n].ino = st->st_ino;
	p->v[p->n].path = strdup(path);
	if (!p->v[p->n].path) {
		p->oom = 1;
		return 1;
	}
	p->n++;
	return 0;
}

static int by_ino(const void *a, const void *b)
{
	const struct hs_path *x = a, *y = b;

	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

/* Walk @root, a mount whose files have st_dev @dev; NULL if out of memory */
struct hs_paths *hs_paths_new(const char *root, unsigned long long dev)
{
	struct hs_paths *p = calloc(1, sizeof(*p));
	size_t i, j;

	if (!p)
		return NULL;
	p->dev = dev;
	walking = p;
	/* Unreadable directories are skipped: their files stay nameless. */
	nftw(root, visit, 32, FTW_PHYS | FTW_MOUNT);
	walking = NULL;
	if (p->oom) {
		hs_paths_free(p);
		return NULL;
	}
	/* Hard links: keep the smallest path, whatever the walk's order */
	qsort(p->v, p->n, sizeof(*p->v), by_ino);
	for (i = j = 0; i < p->n; i++) {
		if (j && p->v[j - 1].ino == p->v[i].ino) {
			if (strcmp(p->v[i].path, p->v[j - 1].path) < 0) {
				free(p->v[j - 1].path);
				p->v[j - 1].path = p->v[i].path;
			} else {
				free(p->v[i].path);
			}
			continue;
		}
		p->v[j++] = p->v[i];
	}
	p->n = j;
	return p;
}

const char *hs_paths_lookup(struct hs_paths *p, uint64_t ino)
{
	struct hs_path key = { .ino = ino }, *hit;

	if (!p || !p->n)
		return NULL;
	hit = bsearch(&key, p->v, p->n, sizeof(*p->v), by_ino);
	return hit ? hit->path : NULL;
}

size_t hs_paths_count(const struct hs_paths *p)
{
	return p ? p->n : 0;
}

void hs_paths_free(struct hs_paths *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->n; i++)
		free(p->v[i].path);
	free(p->v);
	free(p);
}

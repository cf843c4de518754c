/* SPDX-License-Identifier: GPL-2.0 */
/* The kernel's own jhash, from the tree named by KSRC in the Makefile. */
#include <shim.h>
#include KSRC_JHASH_H

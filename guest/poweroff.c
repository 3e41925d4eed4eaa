// SPDX-License-Identifier: GPL-2.0
/*
 * Power the guest off from PID 1 (or anything with CAP_SYS_BOOT): flush
 * the file systems, then ask the kernel to power off. Built on the host into
 * build/guest/poweroff by scripts/build-guest.sh; the guest runs it from the
 * shared root.
 *
 *   poweroff [-r]     -r reboots instead (QEMU runs with -no-reboot, so a
 *                     reboot ends QEMU as well)
 */
#include <stdio.h>
#include <string.h>
#include <sys/reboot.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int cmd = RB_POWER_OFF;

	if (argc > 1 && strcmp(argv[1], "-r") == 0)
		cmd = RB_AUTOBOOT;
	sync();
	reboot(cmd);
	perror("reboot");
	return 1;
}

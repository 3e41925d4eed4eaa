# SPDX-License-Identifier: GPL-2.0
# Entry points of the harness; the scripts in scripts/ do the work.
#
#   make demo     the main job: boot the patched kernel, show what is hot
#   make test     set up, sync the tree, build, boot, run and judge all tests
#                 (NO_BUILD=1 V=1 HOT_FSES=... HOT_TESTS=... see
#                 scripts/run-tests.sh)
#   make bench    benchmark: hot_track on/off, unpatched kernel, scaling,
#                 memory; tables in bench/results/ (NO_BUILD=1 BENCH_PAIRS=...
#                 see scripts/bench.sh)
#   make profile  where a tracked read's time goes: the ftrace function
#                 profiler under the instruction-counting clock
#                 (build/obj-profile; NO_BUILD=1 PROFILE_SAVE=1 see
#                 scripts/profile.sh)
#   make lint     checkpatch --strict, every prefix of the series builds,
#                 sparse, W=1 and kernel-doc on what the series touches
#                 (make test runs all but the prefix builds; scripts/lint.sh)
#   make kunit    the KUnit suites under UML, the kernel's way:
#                 kunit.py run --kunitconfig fs/hot_tracking (build/kunit-uml)
#   make fstests  fstests in the guest on btrfs/ext4/xfs, plain and with
#                 -o hot_track; table in build/run/fstests/summary.md
#                 (NO_BUILD=1 FSTESTS="generic/013 ..." FSTESTS_FSES=...
#                 see scripts/fstests.sh)
#   make sync     build/linux <- patches/
#   make export   patches/ <- build/linux
#   make kernel   build the test kernel (build/obj-test)
#   make guest    build the guest programs (build/guest)
#   make boot     boot the test kernel with a shell on the console (^A x quits)
#   make clean    remove run results, guest programs, disks and the KVM probe
#                 result; the tree and kernel builds stay
#                 (make clean-kernel removes build/obj-*)
.PHONY: test demo bench profile lint kunit fstests sync export kernel guest boot clean clean-kernel

test:
	scripts/run-tests.sh

demo:
	scripts/demo.sh

bench:
	scripts/bench.sh

profile:
	scripts/profile.sh

lint:
	scripts/lint.sh

kunit: sync
	cd build/linux && ./tools/testing/kunit/kunit.py run \
		--kunitconfig fs/hot_tracking --build_dir ../kunit-uml --jobs 2 \
		--make_options CC="ccache gcc"

fstests:
	scripts/fstests.sh

sync:
	scripts/tree.sh sync

export:
	scripts/tree.sh export

kernel:
	scripts/build.sh test

guest:
	scripts/build-guest.sh

boot:
	scripts/boot.sh --disks 2 --out build/run/boot -- /bin/bash -i

clean:
	rm -rf build/run build/guest build/accel build/accel-probe.*

clean-kernel:
	rm -rf build/obj-*

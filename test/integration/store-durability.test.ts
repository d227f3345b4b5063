/**
 * A signup answered 201 is on disk, as DynamoDB's answer means: the data folder on a small ext4 image is
 * forced read-only by the kernel (an ext4 error, the journal aborted) in the middle of signups, then
 * unmounted, checked with e2fsck and mounted again, and a new runner must find every acknowledged signup.
 * What was only in the page cache is gone by then. Needs root and loop devices, and says so if it lacks them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { runningStoreEndpoint } from '../../local/local-dynamodb';
import { LOCAL_TABLE_NAME } from '../../local/local-store-client';
import { killRunnerChildren, startRunnerChild } from './runner-child';
import { storedEmails } from './store-records';
import { postJoin, withConcurrency } from './waitlist-api';

const folder = fs.mkdtempSync(join(tmpdir(), 'mandje-ext4-'));
const image = join(folder, 'data.img');
const mountPoint = join(folder, 'mnt');
const dataDir = join(mountPoint, 'data');
let mounted = false;

/** Mounts the image through a loop device that the unmount frees (autoclear); returns the device. */
function mountImage(): string {
  fs.mkdirSync(mountPoint, { recursive: true });
  const mount = spawnSync('mount', ['-o', 'loop,errors=remount-ro', image, mountPoint], { encoding: 'utf8' });
  if (mount.status !== 0)
    throw new Error(`this test needs root and loop devices (mount -o loop failed): ${mount.stderr}`);
  mounted = true;
  return fs
    .readFileSync('/proc/mounts', 'utf8')
    .match(new RegExp(`^(\\S+) ${mountPoint} `, 'm'))?.[1] as string;
}

/** Unmounts, waiting for the store process (which ends after the runner) to let go of the folder. */
async function unmount(): Promise<void> {
  for (let tries = 0; mounted; tries++) {
    const umount = spawnSync('umount', [mountPoint], { encoding: 'utf8' });
    if (umount.status === 0) mounted = false;
    else if (tries < 50) await delay(100);
    else throw new Error(`the image could not be unmounted: ${umount.stderr}`);
  }
}

afterEach(async () => {
  killRunnerChildren();
  await unmount().catch(() => execFileSync('umount', ['-l', mountPoint]));
  fs.rmSync(folder, { recursive: true, force: true });
});

describe('the data folder after an OS-level fault', () => {
  it('still holds every signup answered 201 after its file system is forced read-only mid-traffic', async () => {
    fs.writeFileSync(image, '');
    fs.truncateSync(image, 24 * 1024 * 1024);
    execFileSync('mkfs.ext4', ['-q', '-F', image]);
    const trigger = `/sys/fs/ext4/${basename(mountImage())}/trigger_fs_error`;
    if (!fs.existsSync(trigger))
      throw new Error(`this test needs ${trigger} (a Linux ext4 with its test hooks)`);
    const runner = await startRunnerChild(dataDir);

    const statuses = new Map<string, number>();
    let faultAt = Number.POSITIVE_INFINITY;
    const signUp = async (email: string) => {
      const { status } = await postJoin(runner.url, { email, language: 'nl' }).catch(() => ({ status: 0 }));
      statuses.set(email, status);
    };
    // Four visitors at a time until a second after the fault; the fault 1.5 s in.
    const traffic = withConcurrency(
      4,
      Array.from({ length: 4 }, (_, visitor) => async () => {
        for (let n = 0; Date.now() < faultAt + 1_000; n++) await signUp(`ext4.${visitor}.${n}@example.nl`);
      }),
    );
    await delay(1_500);
    fs.writeFileSync(trigger, '1');
    faultAt = Date.now();
    await traffic;
    await runner.stop();

    const acknowledged = [...statuses].filter(([, status]) => status === 201).map(([email]) => email);
    expect(acknowledged.length).toBeGreaterThan(0);
    // The fault reached the store: signups after it were refused.
    expect([...statuses.values()]).toContain(503);

    await unmount();
    // 0: clean, 1: errors corrected (the error the trigger recorded); anything else leaves it unusable.
    const fsck = spawnSync('e2fsck', ['-fy', image], { encoding: 'utf8' });
    expect(fsck.status, fsck.stdout).toBeLessThanOrEqual(1);
    mountImage();
    const restarted = await startRunnerChild(dataDir);
    const stored = new Set(await storedEmails(runningStoreEndpoint(dataDir), LOCAL_TABLE_NAME));
    expect(acknowledged.filter((email) => !stored.has(email))).toEqual([]);
    await restarted.stop();
  });
});

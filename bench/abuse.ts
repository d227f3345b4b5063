/**
 * One client trying to turn the waitlist against one inbox: it posts plus-tag and dot spellings of one
 * Gmail mailbox as fast as it can, from one address, as signups and as requests for a leave link, while
 * ordinary visitors (each from an address of its own on the loopback network, 127.0.0.0/8) sign up beside
 * it. Measured: the mails of any kind the attack causes to that mailbox, and the visitors' signups per
 * second against the same without the attack. The runner keeps its per-client limit
 * (CLIENT_POSTS_PER_MINUTE) and the per-mailbox limit (MAILS_PER_MAILBOX, over a sliding 24 hours, every
 * kind of requested mail together) as `npm start` has them.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { simpleParser } from 'mailparser';
import { CLIENT_POSTS_PER_MINUTE, MAILS_PER_MAILBOX } from '#contract/abuse-limits';
import { deliveryKey, emailKey } from '#contract/email-address';
import { LEAVE_REQUEST_PATH } from '#contract/leave';
import { WAITLIST_PATH } from '#contract/waitlist-api';
import { type BudgetCheck, evaluateBudget } from './budgets';
import type { BenchSection } from './report';
import { startRunnerProcess } from './runner-process';
import { round } from './statistics';

export interface AbuseOptions {
  /** Each phase: the attack alone, visitors alone, visitors beside the attack. */
  phaseSeconds?: number;
  /** Ordinary signups per second, each from an address of its own: a launch-day pace the mailer keeps up with. */
  visitorsPerSecond?: number;
  attackerConnections?: number;
}

/** The goal: ordinary visitors keep at least this share of their throughput while the attack runs. */
export const MIN_VISITOR_RATIO = 0.9;

const ABUSE_BUDGET_CHECKS: BudgetCheck<{ ratio: number; mails: number }>[] = [
  {
    name: 'Visitors’ signups per second beside the attack, as a share of alone',
    kind: 'min',
    limit: MIN_VISITOR_RATIO,
    measure: ({ ratio }) => ratio,
    format: (value) => value.toFixed(2),
  },
  {
    name: 'Mails to the attacked mailbox (confirmations and leave links) in 24 hours',
    kind: 'max',
    limit: MAILS_PER_MAILBOX,
    measure: ({ mails }) => mails,
    format: (value) => String(value),
  },
];

const VICTIM = 'victim';
/** Two attacks, each from one address: the second meets a fresh per-client window. */
const ATTACKER_ADDRESSES = ['127.0.0.66', '127.0.0.67'] as const;

interface Answer {
  status: number;
  ms: number;
}

/**
 * One POST from `localAddress` of a signup, or of a request for a leave link; the status (0 when the
 * connection failed) and the time taken.
 */
function postSignup(url: URL, localAddress: string, email: string, path = WAITLIST_PATH): Promise<Answer> {
  const body = JSON.stringify({ email, language: 'nl' });
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (status: number) => resolve({ status, ms: performance.now() - started });
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        path,
        method: 'POST',
        localAddress,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: 10_000,
      },
      (response) => {
        response.resume();
        response.once('end', () => done(response.statusCode ?? 0));
      },
    );
    outgoing.once('error', () => done(0));
    outgoing.once('timeout', () => outgoing.destroy());
    outgoing.end(body);
  });
}

/** The n-th visitor's own loopback address: 127.1.0.1, 127.1.0.2, … (never the attacker's). */
const visitorAddress = (n: number) => `127.${1 + ((n >> 16) & 0x7f)}.${(n >> 8) & 0xff}.${n & 0xff || 1}`;

/** The n-th spelling of the victim's one Gmail mailbox: dots in other places, a tag of its own. */
function victimSpelling(n: number): string {
  const dotted = VICTIM.split('')
    .map((char, at) => (n & (1 << at) && at < VICTIM.length - 1 ? `${char}.` : char))
    .join('');
  return `${dotted}+${n}@${n % 2 ? 'gmail.com' : 'googlemail.com'}`;
}

/** Runs `connections` loops of `send` until `until`, as fast as answers come; counts each status. */
async function hammer(
  connections: number,
  until: number,
  send: (n: number) => Promise<Answer>,
): Promise<Record<number, number>> {
  const counts: Record<number, number> = {};
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        const { status } = await send(next++);
        counts[status] = (counts[status] ?? 0) + 1;
      }
    }),
  );
  return counts;
}

/** Sends `perSecond` requests a second, on the clock whatever the answers do, for `seconds`; all answers. */
async function paced(perSecond: number, seconds: number, send: () => Promise<Answer>): Promise<Answer[]> {
  const started = performance.now();
  const sent: Promise<Answer>[] = [];
  for (let index = 0; index < perSecond * seconds; index++) {
    const due = started + (index * 1000) / perSecond;
    const wait = due - performance.now();
    if (wait > 0) await delay(wait);
    sent.push(send());
  }
  return Promise.all(sent);
}

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
};

interface VictimMails {
  confirmations: number;
  leaveLinks: number;
}

/** The mails in the outbox addressed to any spelling of the victim's mailbox, by kind (read from the subject). */
async function mailsToVictim(outboxDir: string): Promise<VictimMails> {
  let files: string[];
  try {
    files = readdirSync(outboxDir).filter((file) => file.endsWith('.eml'));
  } catch {
    files = [];
  }
  const victim = deliveryKey(`${VICTIM}@gmail.com`);
  const mails = { confirmations: 0, leaveLinks: 0 };
  for (const file of files) {
    const raw = readFileSync(join(outboxDir, file), 'utf8');
    const to = /^To: (.+)$/m.exec(raw)?.[1]?.trim() ?? '';
    const key = emailKey(to);
    if (key === undefined || deliveryKey(key) !== victim) continue;
    const { subject = '' } = await simpleParser(raw);
    if (/leave|verlaten/i.test(subject)) mails.leaveLinks++;
    else mails.confirmations++;
  }
  return mails;
}

const total = ({ confirmations, leaveLinks }: VictimMails) => confirmations + leaveLinks;

/** Waits until the outbox stops growing (the mails the runner still owes are written), 20 s at most. */
async function outboxSettled(count: () => Promise<VictimMails>): Promise<VictimMails> {
  let last = -1;
  for (let waited = 0; waited < 20_000; waited += 1_000) {
    const now = await count();
    if (total(now) === last) return now;
    last = total(now);
    await delay(1_000);
  }
  return count();
}

export interface AbuseResults {
  phaseSeconds: number;
  visitorsPerSecond: number;
  attackerConnections: number;
  clientPostsPerMinute: number;
  mailsPerMailbox: number;
  attackRequests: number;
  attackStatusCounts: Record<string, number>;
  mailsToVictim: number;
  confirmationsToVictim: number;
  leaveLinksToVictim: number;
  visitorSignupsPerSecondAlone: number;
  visitorSignupsPerSecondBesideAttack: number;
  visitorRatio: number;
  visitorP99MsAlone: number;
  visitorP99MsBesideAttack: number;
  secondAttackStatusCounts: Record<string, number>;
}

/** The section's table and notes, from its results: for this run's report and for the performance page. */
export function abuseSection(results: AbuseResults): BenchSection {
  const status = (code: number) => results.attackStatusCounts[code] ?? 0;
  return {
    name: 'abuse',
    title: 'Abuse: one client hammering one mailbox beside ordinary visitors',
    results: {},
    table: {
      head: ['Figure', 'Value'],
      rows: [
        ['Attacker’s requests (one address, spellings of one Gmail mailbox)', results.attackRequests],
        ['…answered 201 / 202 / 429', `${status(201)} / ${status(202)} / ${status(429)}`],
        [
          `Mails to that mailbox in 24 hours: confirmations + leave links (budget ≤ ${results.mailsPerMailbox})`,
          `${results.mailsToVictim} (${results.confirmationsToVictim ?? results.mailsToVictim} + ${results.leaveLinksToVictim ?? 0})`,
        ],
        ['Visitors’ signups per second, alone', results.visitorSignupsPerSecondAlone],
        ['Visitors’ signups per second, beside an attack', results.visitorSignupsPerSecondBesideAttack],
        [`Ratio (goal ≥ ${MIN_VISITOR_RATIO})`, results.visitorRatio],
        [
          'Visitors’ p99 answer time, alone / beside an attack',
          `${results.visitorP99MsAlone} ms / ${results.visitorP99MsBesideAttack} ms`,
        ],
      ],
    },
    notes: [
      `Three phases of ${results.phaseSeconds} s on this machine: the attack alone (${results.attackerConnections} connections from one address, as fast as answers come, signups and leave-link requests in turn), ordinary visitors alone (${results.visitorsPerSecond} signups a second, each from an address of its own on the loopback network), then both, the attack from a second address.`,
      `Limits as \`npm start\` has them: ${results.clientPostsPerMinute} posts per client per minute, ${results.mailsPerMailbox} mails per mailbox in any 24 hours, confirmations and leave links together. The 24 hours slide, so what the attack got in its phase is all that mailbox gets that day. The attacker's own load runs on the same cores.`,
    ],
  };
}

export async function measureAbuse({
  phaseSeconds = 15,
  visitorsPerSecond = 100,
  attackerConnections = 32,
}: AbuseOptions = {}): Promise<BenchSection> {
  const dataDir = mkdtempSync(join(tmpdir(), 'mandje-bench-abuse-'));
  const outboxDir = join(dataDir, 'outbox');
  const runner = await startRunnerProcess(dataDir, undefined, { clientLimit: true });
  const url = new URL(runner.url);
  let visitor = 0;
  const visit = () => {
    const n = ++visitor;
    return postSignup(url, visitorAddress(n), `visitor-${n}@example.nl`);
  };
  // Signups and leave-link requests in turn: each spelling signed up is then asked a leave link for.
  const attack = (address: string) => (n: number) => {
    const spelling = victimSpelling((n >> 1) + (address === ATTACKER_ADDRESSES[1] ? 1_000_000 : 0));
    return postSignup(url, address, spelling, n % 2 ? LEAVE_REQUEST_PATH : WAITLIST_PATH);
  };
  try {
    // 1. The attack alone: what it gets out of the product.
    const attackAlone = await hammer(
      attackerConnections,
      Date.now() + phaseSeconds * 1000,
      attack(ATTACKER_ADDRESSES[0]),
    );
    const byKind = await outboxSettled(() => mailsToVictim(outboxDir));
    const mails = total(byKind);

    // 2. Ordinary visitors alone, then 3. beside a second attack from a fresh address.
    const alone = await paced(visitorsPerSecond, phaseSeconds, visit);
    const [beside, attacker] = await Promise.all([
      paced(visitorsPerSecond, phaseSeconds, visit),
      hammer(attackerConnections, Date.now() + phaseSeconds * 1000, attack(ATTACKER_ADDRESSES[1])),
    ]);

    const joined = (answers: Answer[]) => answers.filter((answer) => answer.status === 201);
    const baselineRate = joined(alone).length / phaseSeconds;
    const attackRate = joined(beside).length / phaseSeconds;
    const ratio = baselineRate === 0 ? 0 : attackRate / baselineRate;
    const p99 = (answers: Answer[]) =>
      round(
        percentile(
          answers.map((answer) => answer.ms),
          0.99,
        ),
        1,
      );
    const attackRequests = Object.values(attackAlone).reduce((sum, count) => sum + count, 0);
    const results: AbuseResults = {
      phaseSeconds,
      visitorsPerSecond,
      attackerConnections,
      clientPostsPerMinute: CLIENT_POSTS_PER_MINUTE,
      mailsPerMailbox: MAILS_PER_MAILBOX,
      attackRequests,
      attackStatusCounts: attackAlone,
      mailsToVictim: mails,
      confirmationsToVictim: byKind.confirmations,
      leaveLinksToVictim: byKind.leaveLinks,
      visitorSignupsPerSecondAlone: round(baselineRate, 1),
      visitorSignupsPerSecondBesideAttack: round(attackRate, 1),
      visitorRatio: round(ratio, 3),
      visitorP99MsAlone: p99(alone),
      visitorP99MsBesideAttack: p99(beside),
      secondAttackStatusCounts: attacker,
    };
    return {
      ...abuseSection(results),
      results: { ...results },
      budgets: ABUSE_BUDGET_CHECKS.map((check) => evaluateBudget(check, { ratio, mails })),
    };
  } finally {
    await runner.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

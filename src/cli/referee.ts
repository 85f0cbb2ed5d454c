// `sf referee add|passwd|assign|extend|resend-welcome|resend-edict|retry-mail|drop-mail|amend|remove|address|press|…`: referee
// accounts and the referee's actions from a terminal, through the same operations as the console
// (src/control/referee-operations.ts). A one-time password is printed once and stored only as its hash.
import { createInterface } from 'node:readline';
import { InputError, str, wholeNumber } from './args.ts';
import { out, perform, type Group, type Leaf } from './command.ts';
import { amend, dispute, disputes, length, pause, positionals, reason, replace, resume, rollback } from './referee-disputes.ts';
import { address, remove } from './referee-players.ts';
import { press } from './referee-press.ts';

/** A new password from standard input: typed without echo on a terminal, or the first line of a pipe. */
async function readPassword(): Promise<string> {
  const stdin = process.stdin;
  if (!stdin.isTTY) {
    const rl = createInterface({ input: stdin });
    for await (const line of rl) {
      rl.close();
      return line;
    }
    throw new InputError('no password on standard input');
  }
  process.stderr.write('New password (not shown): ');
  stdin.setRawMode(true);
  stdin.resume();
  stdin.setEncoding('utf8');
  try {
    return await new Promise<string>((resolve, reject) => {
      let typed = '';
      const onData = (chunk: string) => {
        for (const c of chunk) {
          if (c === '\r' || c === '\n') {
            stdin.off('data', onData);
            process.stderr.write('\n');
            return resolve(typed);
          }
          if (c === '\u0003') {
            stdin.off('data', onData);
            return reject(new InputError('cancelled'));
          }
          typed = c === '\u007f' || c === '\b' ? typed.slice(0, -1) : typed + c;
        }
      };
      stdin.on('data', onData);
    });
  } finally {
    stdin.setRawMode(false);
    stdin.pause();
  }
}

const add: Leaf = {
  spec: {
    name: 'sf referee add',
    summary: 'create a referee; prints a one-time password for the first login',
    args: '<email>',
    options: {},
    examples: ['sf referee add ref@example.com'],
  },
  async run(p) {
    const [email] = positionals(p, ['the address'], 'sf referee add <email>');
    const r = (await perform('sf referee add', 'referee.add', { email })) as { email: string; password: string };
    out(
      `referee ${r.email} created\none-time password: ${r.password}\n(shown once, good for one login: log in at /referee/login and set your own password; then sf referee assign <game> ${r.email})`,
    );
    return 0;
  },
};

const passwd: Leaf = {
  spec: {
    name: 'sf referee passwd',
    summary: 'set a referee’s password (typed, with --prompt), or print a new one-time password',
    args: '<email>',
    options: { prompt: { help: 'read the new password from the terminal without echo (or the first line of standard input)' } },
    notes: [
      'Every browser logged in as this referee is logged out. A one-time password opens one session, which must set a new password (the console’s Password page) before anything else.',
    ],
    examples: ['sf referee passwd ref@example.com', 'sf referee passwd ref@example.com --prompt'],
  },
  async run(p) {
    const [email] = positionals(p, ['the address'], 'sf referee passwd <email>');
    const password = p.values.prompt === true ? await readPassword() : undefined;
    const r = (await perform('sf referee passwd', 'referee.passwd', { email, password })) as { email: string; password: string | null };
    out(
      r.password
        ? `new one-time password for ${r.email}: ${r.password}\n(good for one login, which then sets a password of their own)`
        : `password of ${r.email} set`,
    );
    return 0;
  },
};

const assign: Leaf = {
  spec: {
    name: 'sf referee assign',
    summary: 'make a referee one of a game’s referees',
    args: '<game> <email>',
    options: {},
    examples: ['sf referee assign test-galaxy ref@example.com'],
  },
  async run(p) {
    const [gameId, email] = positionals(p, ['the game', 'the address'], 'sf referee assign <game> <email>');
    const r = (await perform('sf referee assign', 'referee.assign', { gameId, email })) as {
      game: string;
      email: string;
      added: boolean;
      referees: string[];
    };
    out(`${r.email} ${r.added ? 'now referees' : 'already referees'} ${r.game} (referees: ${r.referees.join(', ')})`);
    return 0;
  },
};

const extend: Leaf = {
  spec: {
    name: 'sf referee extend',
    summary: 'move the open turn’s deadline later (at most 7 days at a time); every player is told',
    args: '<game>',
    options: { minutes: { value: '<minutes>', help: 'how much later', required: true }, reason },
    examples: ["sf referee extend test-galaxy --minutes 1440 --reason 'mail server down on Sunday'"],
  },
  async run(p) {
    const [gameId] = positionals(p, ['the game'], 'sf referee extend <game> --minutes <m> --reason <text>');
    const r = (await perform('sf referee extend', 'referee.extend', {
      gameId,
      minutes: wholeNumber('minutes', 'minutes', str(p, 'minutes')),
      reason: str(p, 'reason'),
    })) as {
      turn: number;
      deadline: string;
      previous: string;
    };
    out(`turn ${r.turn}: deadline moved from ${r.previous} to ${r.deadline}; every player will be told`);
    return 0;
  },
};

const resendWelcome: Leaf = {
  spec: {
    name: 'sf referee resend-welcome',
    summary: 'send a player their welcome mail (address and code) again',
    args: '<game> <faction|email>',
    options: { reason },
    examples: ["sf referee resend-welcome test-galaxy sith --reason 'lost the first one'"],
  },
  async run(p) {
    const [gameId, player] = positionals(p, ['the game', 'the player'], 'sf referee resend-welcome <game> <faction|email> --reason <text>');
    const r = (await perform('sf referee resend-welcome', 'referee.resend-welcome', { gameId, player, reason: str(p, 'reason') })) as {
      outbox: number;
      to: string;
    };
    out(`welcome mail to ${r.to} queued (outbox ${r.outbox})`);
    return 0;
  },
};

const resendEdict: Leaf = {
  spec: {
    name: 'sf referee resend-edict',
    summary: 'send a turn’s newest edict again, to one player or to all',
    args: '<game> <turn>',
    options: { to: { value: '<faction|email>', help: 'only this player', default: 'every player' }, reason },
    examples: ["sf referee resend-edict test-galaxy 3 --to sith --reason 'their server lost it'"],
  },
  async run(p) {
    const [gameId, turn] = positionals(p, ['the game', 'the turn'], 'sf referee resend-edict <game> <turn> --reason <text>');
    const args = { gameId, turn: wholeNumber('turn', 'turns', turn), player: str(p, 'to'), reason: str(p, 'reason') };
    const r = (await perform('sf referee resend-edict', 'referee.resend-edict', args)) as { queued: number };
    out(`edict queued for ${r.queued} player${r.queued === 1 ? '' : 's'}`);
    return 0;
  },
};

const mailAction = (verb: 'retry-mail' | 'drop-mail', summary: string, done: string): Leaf => ({
  spec: {
    name: `sf referee ${verb}`,
    summary,
    args: '<game> <outbox id>',
    options: { reason },
    notes: ['sf outbox list --game <game> --status failed shows the ids.'],
    examples: [`sf referee ${verb} test-galaxy 42 --reason 'address fixed by the player'`],
  },
  async run(p) {
    const [gameId, id] = positionals(p, ['the game', 'the outbox id'], `sf referee ${verb} <game> <outbox id> --reason <text>`);
    const r = (await perform(`sf referee ${verb}`, `referee.${verb}`, {
      gameId,
      outboxId: wholeNumber('id', 'mails', id),
      reason: str(p, 'reason'),
    })) as { outbox: number };
    out(`mail ${r.outbox} ${done}`);
    return 0;
  },
});

export const group: Group = {
  name: 'sf referee',
  summary: 'referee accounts, and the referee’s actions from a terminal',
  subs: {
    add,
    passwd,
    assign,
    extend,
    'resend-welcome': resendWelcome,
    'resend-edict': resendEdict,
    'retry-mail': mailAction('retry-mail', 'queue a mail that failed again', 'queued again'),
    'drop-mail': mailAction('drop-mail', 'give up a mail that keeps failing', 'given up'),
    amend,
    rollback,
    replace,
    remove,
    address,
    pause,
    resume,
    length,
    press,
    disputes,
    dispute,
  },
};

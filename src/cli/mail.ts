// `sf mail inspect <file.eml>`: what the intake would extract from one mail, as JSON, without
// touching a game (exit 0 whatever the mail says). `sf mail show <file.eml>`: an outgoing .eml
// (data/mail/outbox, quoted-printable) decoded for a person to read.
import { readFile } from 'node:fs/promises';
import { simpleParser, type AddressObject } from 'mailparser';
import { loadConfig, mailFromAddress } from '../config.ts';
import { inspectMail } from '../mail/read/inspect.ts';
import { InputError, list, str, UsageError, type Parsed } from './args.ts';
import { out, type Group, type Leaf } from './command.ts';
import { cannotRead } from './files.ts';
import { printable, printableLine } from './terminal.ts';

async function oneFile(p: Parsed, command: string): Promise<Buffer> {
  if (p.positionals.length !== 1) throw new UsageError(`give one mail file: ${command} <file.eml>`);
  const file = p.positionals[0]!;
  return readFile(file).catch((e: unknown) => {
    throw new InputError(cannotRead(file, e));
  });
}

const inspect: Leaf = {
  spec: {
    name: 'sf mail inspect',
    summary: 'show as JSON what intake reads in a mail (sender, game, orders, problems), touching no game',
    args: '<file.eml>',
    options: {
      domain: { value: '<domain>', help: 'our mail domain', default: '$MAIL_DOMAIN' },
      'local-part': { value: '<orders>', help: 'the local part of the orders address', default: '$ORDERS_LOCAL_PART' },
      'max-bytes': { value: '<bytes>', help: 'larger mails are refused unread', default: '$MAX_MAIL_BYTES' },
      'our-address': {
        value: '<address,…>',
        help: 'addresses of ours: mail from them is never answered',
        default: 'the address in $MAIL_FROM',
      },
    },
    examples: ['sf mail inspect reply.eml --domain sf.example'],
  },
  async run(p) {
    const maxBytes = p.values['max-bytes'];
    if (typeof maxBytes === 'string' && !/^[1-9]\d{0,12}$/.test(maxBytes))
      throw new UsageError(`--max-bytes must be a whole number of bytes (got ${maxBytes})`);
    const config = loadConfig();
    const raw = await oneFile(p, 'sf mail inspect');
    const result = await inspectMail(raw, {
      maxBytes: typeof maxBytes === 'string' ? Number(maxBytes) : config.mail.maxBytes,
      ourDomain: typeof p.values.domain === 'string' ? p.values.domain : config.mail.domain,
      ordersLocalPart: typeof p.values['local-part'] === 'string' ? p.values['local-part'] : config.mail.ordersLocalPart,
      ourAddresses: list(str(p, 'our-address')) ?? [mailFromAddress(config.mail)],
    });
    out(JSON.stringify(result, null, 2));
    return 0;
  },
};

const addresses = (a: AddressObject | AddressObject[] | undefined) =>
  a === undefined ? undefined : (Array.isArray(a) ? a : [a]).map((x) => x.text).join(', ');

const show: Leaf = {
  spec: {
    name: 'sf mail show',
    summary: 'show a mail (e.g. an outgoing .eml in data/mail/outbox) decoded: headers and text',
    args: '<file.eml>',
    options: { html: { help: 'print the HTML part too, when there is one' } },
    examples: ['sf mail show data/mail/outbox/<file>.eml'],
  },
  async run(p) {
    const raw = await oneFile(p, 'sf mail show');
    const m = await simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true });
    const headers: Array<[string, string | undefined]> = [
      ['From', addresses(m.from)],
      ['To', addresses(m.to)],
      ['Cc', addresses(m.cc)],
      ['Reply-To', addresses(m.replyTo)],
      ['Subject', m.subject],
      ['Date', m.date?.toISOString()],
      ['Message-ID', m.messageId],
      ['In-Reply-To', m.inReplyTo],
      [
        'Attachments',
        m.attachments.length
          ? m.attachments.map((a) => `${a.filename ?? '(no name)'} (${a.contentType}, ${a.size} bytes)`).join(', ')
          : undefined,
      ],
    ];
    const lines = headers.filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => `${k}: ${printableLine(v!)}`);
    lines.push('', printable(m.text ?? '(no text part)').trimEnd());
    if (p.values.html && typeof m.html === 'string') lines.push('', '--- HTML ---', printable(m.html));
    out(lines.join('\n'));
    return 0;
  },
};

export const group: Group = { name: 'sf mail', summary: 'read mail files: what intake reads, or a mail decoded', subs: { inspect, show } };

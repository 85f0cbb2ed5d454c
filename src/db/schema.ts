// One schema for PGlite and PostgreSQL. Migrations in drizzle/ are generated from this file with
// `npx drizzle-kit generate`; never edit them by hand.
// Kept free of local imports so that drizzle-kit can load it on its own.
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  // PGlite hands back a Uint8Array, node-postgres a Buffer: repositories see a Buffer either way.
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v.buffer, v.byteOffset, v.byteLength)),
});

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const id = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();

export const games = pgTable(
  'games',
  {
    /** Slug from the name; also the `[SF <game>]` subject tag. */
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    map: text('map').notNull(),
    /** IANA zone; deadlines are wall-clock times there (R-TURN-3/4). */
    timeZone: text('time_zone').notNull(),
    /** `sun 20:00`: weekday and local time of the weekly deadline. */
    weeklyDeadline: text('weekly_deadline').notNull(),
    /** How long before the deadline the Chancellor must have declared (R-TURN-3). */
    declarationLeadMinutes: integer('declaration_lead_minutes').notNull(),
    /** Reminders go out this many minutes before the deadline. */
    reminderMinutes: integer('reminder_minutes').array().notNull(),
    disputeWindowMinutes: integer('dispute_window_minutes').notNull(),
    /** Early processing: once every player in play has a valid sheet, the turn closes this much later; null = off. */
    earlyProcessingMinutes: integer('early_processing_minutes'),
    /** Grace period after the deadline: sheets received in it are still accepted. */
    graceMinutes: integer('grace_minutes').notNull().default(0),
    /** Absences (ABSENCE / ASSENZA) may move deadlines by at most this many days per player, and per game. */
    absenceDaysPerPlayer: integer('absence_days_per_player').notNull().default(14),
    absenceDaysPerGame: integer('absence_days_per_game').notNull().default(28),
    victoryPlanets: integer('victory_planets').notNull(),
    /** R-WIN-2: the game's last turn, set at its start (the referee may change it); null = none. */
    lastTurn: integer('last_turn'),
    nmrHostility: text('nmr_hostility', { enum: ['keep', 'none'] }).notNull(),
    status: text('status', { enum: ['active', 'paused', 'finished'] }).notNull(),
    /** The turn that is open (or being adjudicated). */
    currentTurn: integer('current_turn').notNull(),
    /** While paused: since when (the deadlines move on by the pause's length when it resumes). */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    /** Press settings (src/games/press/settings.ts; read through pressSettingsOf, so `{}` is the defaults). */
    pressSettings: jsonb('press_settings').notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    check('games_id_slug', sql`${t.id} ~ '^[a-z0-9]+(-[a-z0-9]+)*$'`),
    check('games_weekly_deadline', sql`${t.weeklyDeadline} ~ '^(mon|tue|wed|thu|fri|sat|sun) ([01][0-9]|2[0-3]):[0-5][0-9]$'`),
    check('games_nmr_hostility', sql`${t.nmrHostility} in ('keep', 'none')`),
    check('games_status', sql`${t.status} in ('active', 'paused', 'finished')`),
    check('games_minutes', sql`${t.declarationLeadMinutes} >= 0 and ${t.disputeWindowMinutes} >= 0`),
    check('games_victory', sql`${t.victoryPlanets} > 0`),
    check('games_last_turn', sql`coalesce(${t.lastTurn}, 1) > 0`),
    check(
      'games_schedule',
      sql`${t.graceMinutes} >= 0 and coalesce(${t.earlyProcessingMinutes}, 0) >= 0 and ${t.absenceDaysPerPlayer} >= 0 and ${t.absenceDaysPerGame} >= 0`,
    ),
  ],
);

export const players = pgTable(
  'players',
  {
    id: id(),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id),
    faction: text('faction').notNull(),
    /** Lower-cased: senders are matched on the address, never the display name. */
    email: text('email').notNull(),
    displayName: text('display_name'),
    lang: text('lang', { enum: ['it', 'en'] }).notNull(),
    /** Null: the game's time zone. */
    timeZone: text('time_zone'),
    /** Names game and player in `orders+<secret>@…` and `Code: <secret>`; matched case-insensitively. */
    secret: text('secret').notNull(),
    /** First turn this player's faction is in play (R-SETUP-4). */
    joinedTurn: integer('joined_turn').notNull(),
    /**
     * Set when the referee removed the player: the seat is vacant, its faction stays on the board
     * as if no sheet came (D-SEAT-1), and the secret and addresses no longer name anyone.
     */
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('players_game_faction').on(t.gameId, t.faction),
    // `email` is the primary address, where mail to the player goes (D-SEAT-3); an address is
    // unique in a game through player_addresses, which also lists it.
    // Mail servers may change the case of the local part, so secrets are unique ignoring case.
    uniqueIndex('players_secret_lower').on(sql`lower(${t.secret})`),
    index('players_email').on(t.email),
    check('players_lang', sql`${t.lang} in ('it', 'en')`),
    check('players_email_lower', sql`${t.email} = lower(${t.email})`),
  ],
);

export const turns = pgTable(
  'turns',
  {
    gameId: text('game_id')
      .notNull()
      .references(() => games.id),
    number: integer('number').notNull(),
    election: boolean('election').notNull(),
    /** The adjudicator's GameState before this turn. */
    state: jsonb('state').notNull(),
    deadline: timestamp('deadline', { withTimezone: true }).notNull(),
    /** R-TURN-3: the Chancellor's sheet must be in by then (only meaningful with a Chancellor). */
    declarationDeadline: timestamp('declaration_deadline', { withTimezone: true }).notNull(),
    status: text('status', { enum: ['open', 'adjudicated'] }).notNull(),
    /** Early processing announced: the turn closes then, if every sheet is still valid. */
    earlyAt: timestamp('early_at', { withTimezone: true }),
    adjudicatedAt: timestamp('adjudicated_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ name: 'turns_pk', columns: [t.gameId, t.number] }),
    // The scheduler looks for open turns whose deadline has passed.
    index('turns_open_deadline')
      .on(t.deadline)
      .where(sql`${t.status} = 'open'`),
    check('turns_status', sql`${t.status} in ('open', 'adjudicated')`),
    check('turns_number', sql`${t.number} >= 1`),
  ],
);

export const inboundMessages = pgTable(
  'inbound_messages',
  {
    id: id(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    source: text('source', { enum: ['imap', 'maildir', 'cli'] }).notNull(),
    /** Where it came from, e.g. `imap:<uidvalidity>:<uid>` or a maildir file name. */
    sourceKey: text('source_key').notNull(),
    messageId: text('message_id'),
    /** sha256 of the body (after the header block): copies of one message differ only in trace headers. */
    contentSha256: text('content_sha256').notNull(),
    raw: bytea('raw').notNull(),
    size: integer('size').notNull(),
    status: text('status', { enum: ['pending', 'processed', 'ignored', 'rejected'] })
      .notNull()
      .default('pending'),
    /** A word for the referee console: `sheet`, `auto-reply`, `unknown-sender`, … */
    outcome: text('outcome'),
    outcomeDetail: jsonb('outcome_detail'),
    gameId: text('game_id').references(() => games.id),
    playerId: bigint('player_id', { mode: 'number' }).references(() => players.id),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    /** Failed attempts to process it; after a few it is set aside as `unprocessable` (D-MAIL-21). */
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
  },
  (t) => [
    unique('inbound_source_key').on(t.sourceKey),
    // NULL message ids are distinct, so mail without a Message-ID is deduplicated by source only.
    unique('inbound_message_content').on(t.messageId, t.contentSha256),
    index('inbound_pending')
      .on(t.receivedAt)
      .where(sql`${t.status} = 'pending'`),
    index('inbound_game').on(t.gameId, t.receivedAt),
    // The turn job looks for absence mail every pass: an index of just those rows.
    index('inbound_absence')
      .on(t.id)
      .where(sql`${t.outcome} = 'absence'`),
    check('inbound_source', sql`${t.source} in ('imap', 'maildir', 'cli')`),
    check('inbound_status', sql`${t.status} in ('pending', 'processed', 'ignored', 'rejected')`),
  ],
);

export const sheets = pgTable(
  'sheets',
  {
    id: id(),
    gameId: text('game_id').notNull(),
    turn: integer('turn').notNull(),
    faction: text('faction').notNull(),
    version: integer('version').notNull(),
    text: text('text').notNull(),
    parsed: jsonb('parsed').notNull(),
    status: text('status', { enum: ['valid', 'problems'] }).notNull(),
    /** Server time the mail arrived: what counts against the deadline (R-TURN-4). */
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    inboundId: bigint('inbound_id', { mode: 'number' }).references(() => inboundMessages.id),
    createdAt: createdAt(),
  },
  (t) => [
    unique('sheets_version').on(t.gameId, t.turn, t.faction, t.version),
    foreignKey({ name: 'sheets_turn_fk', columns: [t.gameId, t.turn], foreignColumns: [turns.gameId, turns.number] }),
    index('sheets_inbound').on(t.inboundId),
    check('sheets_status', sql`${t.status} in ('valid', 'problems')`),
  ],
);

export const outbox = pgTable(
  'outbox',
  {
    id: id(),
    createdAt: createdAt(),
    /** `welcome`, `ack`, `edict`, `reminder`, … */
    kind: text('kind').notNull(),
    gameId: text('game_id').references(() => games.id),
    toAddress: text('to_address').notNull(),
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    inReplyTo: text('in_reply_to'),
    references: text('references'),
    /** Fixed at enqueue time so retries send the same message and our own mail is recognised. */
    messageId: text('message_id').notNull(),
    bodyText: text('body_text').notNull(),
    bodyHtml: text('body_html'),
    /** Files sent with it, stored once in mail_assets (an edict's map goes to every player). */
    attachments: jsonb('attachments'),
    /** Extra headers (List-Unsubscribe for observers); ours are added by the sender and always win. */
    headers: jsonb('headers'),
    /** E.g. `ack:<inbound id>`: the same mail is enqueued at most once. */
    dedupeKey: text('dedupe_key').notNull(),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    lastError: text('last_error'),
  },
  (t) => [
    unique('outbox_dedupe_key').on(t.dedupeKey),
    unique('outbox_message_id').on(t.messageId),
    // claimBatch scans only what is due.
    index('outbox_due')
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.status} = 'pending'`),
    // The referee's console reads a game's mail in trouble (failed, or pending after an error); a
    // partial index holds only those, so queuing mail (pending, no error) writes one index less a row.
    // Nothing else reads the outbox by game often: the operator's list of a game's mail scans it.
    index('outbox_game_trouble')
      .on(t.gameId, t.createdAt)
      .where(sql`${t.status} = 'failed' or ${t.lastError} is not null`),
    // The reply rate limit counts one address's recent replies (some kinds) for every batch that
    // answers it: by kind before time, so that it skips the press relays to that address, which
    // outnumber the replies in a game with press (bench:press). Bounces read an address over all kinds.
    index('outbox_recipient_recent').on(t.toAddress, t.kind, t.createdAt),
    check('outbox_status', sql`${t.status} in ('pending', 'sent', 'failed')`),
  ],
);

export const edicts = pgTable(
  'edicts',
  {
    gameId: text('game_id').notNull(),
    turn: integer('turn').notNull(),
    /** 1 is the adjudicated edict; later versions are amendments (R-EDICT-3). */
    version: integer('version').notNull(),
    json: jsonb('json').notNull(),
    textIt: text('text_it').notNull(),
    textEn: text('text_en').notNull(),
    /** What the referee changed and why; null for version 1. */
    reason: text('reason'),
    /** The engine that wrote it (package version): `sf turn replay` compares against the current one. */
    engineVersion: text('engine_version'),
    /** The standing sheet of each faction that was adjudicated: faction → sheets.id (R-TURN-4). */
    sheetIds: jsonb('sheet_ids'),
    /** The position after the turn (the next turn's state; kept here too for a game's last turn). */
    stateAfter: jsonb('state_after'),
    /** Closed late (the service was down at the deadline): `{ deadline, closedAt }` as ISO instants; null when on time. */
    closedLate: jsonb('closed_late'),
    createdAt: createdAt(),
    createdBy: text('created_by').notNull(),
  },
  (t) => [
    primaryKey({ name: 'edicts_pk', columns: [t.gameId, t.turn, t.version] }),
    foreignKey({ name: 'edicts_turn_fk', columns: [t.gameId, t.turn], foreignColumns: [turns.gameId, turns.number] }),
  ],
);

/** Who held each seat (faction) of a game, when: a replaced player's time at the table. */
export const seatHistory = pgTable(
  'seat_history',
  {
    id: id(),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id),
    faction: text('faction').notNull(),
    email: text('email').notNull(),
    /** The first and last turn this address played the seat. */
    fromTurn: integer('from_turn').notNull(),
    toTurn: integer('to_turn').notNull(),
    reason: text('reason').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('seat_history_game').on(t.gameId, t.faction)],
);

/**
 * Every address a player may write from, the primary one (players.email) included:
 * intake knows a sender by any of them. A removed or replaced player's rows are deleted.
 */
export const playerAddresses = pgTable(
  'player_addresses',
  {
    id: id(),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id),
    playerId: bigint('player_id', { mode: 'number' })
      .notNull()
      .references(() => players.id),
    /** Lower-cased, as players.email. */
    email: text('email').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('player_addresses_game_email').on(t.gameId, t.email),
    // Intake looks senders up by address across games.
    index('player_addresses_email').on(t.email),
    index('player_addresses_player').on(t.playerId),
    check('player_addresses_email_lower', sql`${t.email} = lower(${t.email})`),
  ],
);

/** People who follow a game's edicts without playing (opt-in; one-click unsubscribe by their token). */
export const observers = pgTable(
  'observers',
  {
    id: id(),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id),
    email: text('email').notNull(),
    lang: text('lang', { enum: ['it', 'en'] }).notNull(),
    /** In the List-Unsubscribe link: knowing it is enough to stop the mail, and to do nothing else. */
    token: text('token').notNull(),
    createdAt: createdAt(),
    unsubscribedAt: timestamp('unsubscribed_at', { withTimezone: true }),
  },
  (t) => [
    unique('observers_game_email').on(t.gameId, t.email),
    unique('observers_token').on(t.token),
    check('observers_email_lower', sql`${t.email} = lower(${t.email})`),
  ],
);

/** A player's announced absence (ABSENCE <from> <to>): deadlines inside it move to its end, within the game's limits. */
export const absences = pgTable(
  'absences',
  {
    id: id(),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id),
    playerId: bigint('player_id', { mode: 'number' })
      .notNull()
      .references(() => players.id),
    /** Whole days in the game's zone: the absence covers [from 00:00, to 24:00). */
    fromDay: text('from_day').notNull(),
    toDay: text('to_day').notNull(),
    inboundId: bigint('inbound_id', { mode: 'number' }).references(() => inboundMessages.id),
    createdAt: createdAt(),
  },
  (t) => [
    index('absences_game').on(t.gameId),
    // An absence mail is applied once, whichever instance's turn job gets to it.
    uniqueIndex('absences_inbound').on(t.inboundId),
    check('absences_days', sql`${t.fromDay} <= ${t.toDay}`),
  ],
);

/**
 * Files attached to outgoing mail (an edict's map and JSON), stored once and referenced by every
 * recipient's outbox row, keyed by their content so that a retry or a resend reuses the row.
 */
export const mailAssets = pgTable('mail_assets', {
  id: id(),
  sha256: text('sha256').notNull().unique('mail_assets_sha256'),
  contentType: text('content_type').notNull(),
  bytes: bytea('bytes').notNull(),
  createdAt: createdAt(),
});

/** Every change a person made (referee, CLI user), written in the transaction that made it. */
export const auditLog = pgTable(
  'audit_log',
  {
    id: id(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    actor: text('actor').notNull(),
    // No foreign key: the log outlives and may predate what it mentions.
    gameId: text('game_id'),
    action: text('action').notNull(),
    detail: jsonb('detail').notNull(),
  },
  (t) => [index('audit_game').on(t.gameId, t.at)],
);

export const mailboxCursors = pgTable('mailbox_cursors', {
  mailbox: text('mailbox').primaryKey(),
  uidValidity: text('uid_validity').notNull(),
  // IMAP UIDs are unsigned 32-bit: too big for integer.
  lastUid: bigint('last_uid', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** People who run games from the referee console; the password only as an argon2id hash. */
export const referees = pgTable(
  'referees',
  {
    id: id(),
    /** Lower-cased; the login name. */
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    passwordSetAt: timestamp('password_set_at', { withTimezone: true }).notNull().defaultNow(),
    /** A password made by `sf referee add`/`passwd`: good for one login, after which the referee sets their own. */
    passwordOneTime: boolean('password_one_time').notNull().default(false),
    /** When the one-time password was used: from then on it logs no one in. */
    oneTimeUsedAt: timestamp('one_time_used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    unique('referees_email').on(t.email),
    check('referees_email_lower', sql`${t.email} = lower(${t.email})`),
    check('referees_hash_argon2', sql`${t.passwordHash} like '$argon2%'`),
  ],
);

/** A logged-in browser: the cookie holds a random token, the table only its sha256. */
export const refereeSessions = pgTable(
  'referee_sessions',
  {
    tokenSha256: text('token_sha256').primaryKey(),
    refereeId: bigint('referee_id', { mode: 'number' })
      .notNull()
      .references(() => referees.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('referee_sessions_referee').on(t.refereeId)],
);

/** Which referees run which games (a game has one or more). */
export const gameReferees = pgTable(
  'game_referees',
  {
    gameId: text('game_id')
      .notNull()
      .references(() => games.id),
    refereeId: bigint('referee_id', { mode: 'number' })
      .notNull()
      .references(() => referees.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'game_referees_pk', columns: [t.gameId, t.refereeId] }), index('game_referees_referee').on(t.refereeId)],
);

/**
 * Failed logins, counted per client and per (account, client) so that a guesser is slowed without
 * locking the account's owner out; in the database so that every instance and a restart see them.
 */
export const loginThrottle = pgTable(
  'login_throttle',
  {
    /** `client:<bucket>` or `pair:<sha256 of the address>:<bucket>` (an IPv4 address or an IPv6 /64). */
    key: text('key').primaryKey(),
    failures: integer('failures').notNull(),
    blockedUntil: timestamp('blocked_until', { withTimezone: true }),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull(),
  },
  // Pruning finds the forgotten rows by age.
  (t) => [index('login_throttle_last_at').on(t.lastAt)],
);

// Press and disputes (docs/press.md §6). An anonymous writer is stored (referees see them, the
// hourly cap counts them); only repositories that say so return it.

/**
 * A conversation: signed ones per set of participants (so a Reply reaches the same people), the
 * game's one "everyone" thread, each player's thread with the referees; every anonymous message
 * starts one of its own (D-PRESS-7).
 */
export const pressThreads = pgTable(
  'press_threads',
  {
    id: id(),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id),
    kind: text('kind', { enum: ['factions', 'all', 'referee'] }).notNull(),
    /** Sorted faction ids of the visible participants; empty for `all` (whoever is seated then); the player's faction for `referee`. */
    participants: text('participants').array().notNull(),
    anonymous: boolean('anonymous').notNull().default(false),
    /** The writer whose name an anonymous thread hides: replies in it reach them. */
    hiddenWriterPlayerId: bigint('hidden_writer_player_id', { mode: 'number' }).references(() => players.id),
    createdAt: createdAt(),
  },
  (t) => [
    // A signed conversation is found again, whoever writes in it first; anonymous ones never are.
    uniqueIndex('press_threads_signed')
      .on(t.gameId, t.kind, t.participants)
      .where(sql`not ${t.anonymous}`),
    check('press_threads_kind', sql`${t.kind} in ('factions', 'all', 'referee')`),
    check('press_threads_hidden', sql`${t.anonymous} = (${t.hiddenWriterPlayerId} is not null)`),
    check('press_threads_referee_signed', sql`not (${t.anonymous} and ${t.kind} = 'referee')`),
  ],
);

/** One message (a block of a mail, a reply by token, or a referee's), relayed or refused, stored before any relay. */
export const pressMessages = pgTable(
  'press_messages',
  {
    id: id(),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id),
    /** Null when refused before any conversation was named. */
    threadId: bigint('thread_id', { mode: 'number' }).references(() => pressThreads.id),
    /** The turn open when it was written. */
    turn: integer('turn').notNull(),
    /** Null when a referee writes. */
    writerPlayerId: bigint('writer_player_id', { mode: 'number' }).references(() => players.id),
    writerRefereeId: bigint('writer_referee_id', { mode: 'number' }).references(() => referees.id),
    writerFaction: text('writer_faction'),
    sign: text('sign', { enum: ['signed', 'anonymous'] }).notNull(),
    audienceKind: text('audience_kind', { enum: ['factions', 'all', 'referee'] }).notNull(),
    /** The factions it went to (for `all`, those seated then); as named, when refused. */
    audienceFactions: text('audience_factions')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    text: text('text').notNull(),
    chars: integer('chars').notNull(),
    /** The mail it came in and its block there (0-based): unique together, so a mail is applied once. */
    inboundId: bigint('inbound_id', { mode: 'number' }).references(() => inboundMessages.id),
    block: integer('block').notNull().default(0),
    inReplyToMessageId: bigint('in_reply_to_message_id', { mode: 'number' }),
    status: text('status', { enum: ['relayed', 'refused'] }).notNull(),
    /** The PressRefusal (src/games/press/decide-press.ts), when refused. */
    refusal: jsonb('refusal'),
    /** When our server received the mail (R-TURN-4): what the hourly cap counts, never the insert time. */
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    /**
     * When players may see it: the receipt for a signed message, its relays' random delay for an
     * anonymous one (D-PRESS-10), so that a page never shows it sooner, nor at its writer's time.
     */
    visibleAt: timestamp('visible_at', { withTimezone: true }).notNull(),
    /**
     * On the public page and its JSON: a message to everyone relayed while the game's press setting
     * said observers = broadcasts. Fixed at relay time, so a later change of the setting applies
     * from the next message and never publishes what was written under another (D-PRESS-20).
     */
    public: boolean('public').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    unique('press_messages_inbound_block').on(t.inboundId, t.block),
    foreignKey({ name: 'press_messages_reply_fk', columns: [t.inReplyToMessageId], foreignColumns: [t.id] }),
    index('press_messages_game').on(t.gameId, t.createdAt),
    // A reply's answer is the latest message of its conversation that reached the replier: read
    // from the newest down (messagesForReplies), where an index on thread_id alone made every
    // reply sort its whole conversation.
    index('press_messages_thread').on(t.threadId, t.id),
    // The hourly cap (D-PRESS-12) counts a writer's accepted messages only.
    index('press_messages_writer_recent')
      .on(t.writerPlayerId, t.receivedAt)
      .where(sql`${t.status} = 'relayed'`),
    check('press_messages_sign', sql`${t.sign} in ('signed', 'anonymous')`),
    check('press_messages_audience', sql`${t.audienceKind} in ('factions', 'all', 'referee')`),
    check('press_messages_status', sql`${t.status} in ('relayed', 'refused')`),
    check('press_messages_writer', sql`(${t.writerPlayerId} is null) <> (${t.writerRefereeId} is null)`),
    check('press_messages_faction', sql`${t.writerPlayerId} is null or ${t.writerFaction} is not null`),
    check('press_messages_refusal', sql`(${t.status} = 'refused') = (${t.refusal} is not null)`),
    check('press_messages_relayed_thread', sql`${t.status} = 'refused' or ${t.threadId} is not null`),
    check('press_messages_block', sql`${t.block} >= 0 and ${t.chars} >= 0`),
  ],
);

/** Who a message went to, and how: mailed at once, kept for the daily digest, or muted (stored, not mailed). */
export const pressRecipients = pgTable(
  'press_recipients',
  {
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => pressMessages.id),
    recipientKind: text('recipient_kind', { enum: ['player', 'referee', 'observer'] }).notNull(),
    /** players.id, referees.id or observers.id, as the kind says. */
    recipientId: bigint('recipient_id', { mode: 'number' }).notNull(),
    /** The address it was sent to, at the time. */
    address: text('address').notNull(),
    delivery: text('delivery', { enum: ['immediate', 'digest', 'muted'] }).notNull(),
    /**
     * The digest that carried it. A relay is not linked here: it is the outbox row with dedupe key
     * `press:<message>:<kind>:<id>` (relayDedupeKey; `recipientsWithMail` reads either).
     */
    outboxId: bigint('outbox_id', { mode: 'number' }).references(() => outbox.id),
    digestedAt: timestamp('digested_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: 'press_recipients_pk', columns: [t.messageId, t.recipientKind, t.recipientId] }),
    // The turn job's digest reads only what waits for it.
    index('press_recipients_digest')
      .on(t.recipientKind, t.recipientId)
      .where(sql`${t.delivery} = 'digest' and ${t.digestedAt} is null`),
    // A reply citing a digest finds its recipients by it. Partial: relays are not linked here, so
    // queuing a message's recipients writes no entry to it (only a digest's UPDATE does).
    index('press_recipients_mail')
      .on(t.outboxId)
      .where(sql`${t.outboxId} is not null`),
    check('press_recipients_kind', sql`${t.recipientKind} in ('player', 'referee', 'observer')`),
    check('press_recipients_delivery', sql`${t.delivery} in ('immediate', 'digest', 'muted')`),
  ],
);

/**
 * Reply-To tokens (`orders+p-…@`), one per conversation and recipient. Lower case only (mail
 * servers fold case; src/games/press/press-token.ts makes and reads them so), hence a plain key.
 */
export const pressTokens = pgTable(
  'press_tokens',
  {
    token: text('token').primaryKey(),
    threadId: bigint('thread_id', { mode: 'number' })
      .notNull()
      .references(() => pressThreads.id),
    ownerKind: text('owner_kind', { enum: ['player', 'referee'] }).notNull(),
    /** players.id or referees.id. */
    ownerId: bigint('owner_id', { mode: 'number' }).notNull(),
    /** This recipient's thread root (`t.<uuid>@domain`, never sent): In-Reply-To/References of every relay to them in the thread. */
    rootMessageId: text('root_message_id').notNull(),
    createdAt: createdAt(),
    /** The seat changed hands (D-SEAT-1/2) or the referee left the game: the token names nobody. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    // One live token per (thread, owner); a referee assigned again gets a fresh one.
    uniqueIndex('press_tokens_owner')
      .on(t.threadId, t.ownerKind, t.ownerId)
      .where(sql`${t.revokedAt} is null`),
    index('press_tokens_owner_all').on(t.ownerKind, t.ownerId),
    check('press_tokens_lower', sql`${t.token} = lower(${t.token})`),
    check('press_tokens_owner_kind', sql`${t.ownerKind} in ('player', 'referee')`),
  ],
);

/** A player's REPORT of a message they received: the stored original goes to the referees. */
export const pressReports = pgTable(
  'press_reports',
  {
    messageId: bigint('message_id', { mode: 'number' })
      .notNull()
      .references(() => pressMessages.id),
    playerId: bigint('player_id', { mode: 'number' })
      .notNull()
      .references(() => players.id),
    reason: text('reason').notNull(),
    inboundId: bigint('inbound_id', { mode: 'number' }).references(() => inboundMessages.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'press_reports_pk', columns: [t.messageId, t.playerId] })],
);

/** MUTE: `muted` is a faction id, or `*anonymous*` for every anonymous message (D-PRESS-11). */
export const mutes = pgTable(
  'mutes',
  {
    playerId: bigint('player_id', { mode: 'number' })
      .notNull()
      .references(() => players.id),
    muted: text('muted').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: 'mutes_pk', columns: [t.playerId, t.muted] })],
);

/** DIGEST / IMMEDIATE; no row: immediate. */
export const pressPreferences = pgTable(
  'press_preferences',
  {
    playerId: bigint('player_id', { mode: 'number' })
      .primaryKey()
      .references(() => players.id),
    delivery: text('delivery', { enum: ['immediate', 'digest'] }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('press_preferences_delivery', sql`${t.delivery} in ('immediate', 'digest')`)],
);

/** DISPUTE / CONTESTA of an edict version (R-TURN-2 step 5), until amended, rejected or lapsed (D-PRESS-14/15). */
export const disputes = pgTable(
  'disputes',
  {
    id: id(),
    gameId: text('game_id')
      .notNull()
      .references(() => games.id),
    turn: integer('turn').notNull(),
    /** The version disputed. */
    edictVersion: integer('edict_version').notNull(),
    playerId: bigint('player_id', { mode: 'number' })
      .notNull()
      .references(() => players.id),
    faction: text('faction').notNull(),
    /** The mail and its block (a mail may hold several disputes): unique together, so a mail is applied once. */
    inboundId: bigint('inbound_id', { mode: 'number' }).references(() => inboundMessages.id),
    block: integer('block').notNull().default(0),
    reason: text('reason').notNull(),
    status: text('status', { enum: ['open', 'rejected', 'amended', 'lapsed'] })
      .notNull()
      .default('open'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    settledAt: timestamp('settled_at', { withTimezone: true }),
    /** Who settled it, as edicts.created_by (`system` when it lapsed). */
    settledBy: text('settled_by'),
    settlementReason: text('settlement_reason'),
    amendedVersion: integer('amended_version'),
  },
  (t) => [
    unique('disputes_inbound_block').on(t.inboundId, t.block),
    foreignKey({
      name: 'disputes_edict_fk',
      columns: [t.gameId, t.turn, t.edictVersion],
      foreignColumns: [edicts.gameId, edicts.turn, edicts.version],
    }),
    foreignKey({
      name: 'disputes_amended_fk',
      columns: [t.gameId, t.turn, t.amendedVersion],
      foreignColumns: [edicts.gameId, edicts.turn, edicts.version],
    }),
    index('disputes_game_turn').on(t.gameId, t.turn, t.status),
    check('disputes_status', sql`${t.status} in ('open', 'rejected', 'amended', 'lapsed')`),
    check('disputes_settled', sql`(${t.status} = 'open') = (${t.settledAt} is null)`),
    check('disputes_rejected_reason', sql`${t.status} <> 'rejected' or ${t.settlementReason} is not null`),
    check('disputes_amended_version', sql`(${t.status} = 'amended') = (${t.amendedVersion} is not null)`),
  ],
);

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
    check('games_schedule', sql`${t.graceMinutes} >= 0 and coalesce(${t.earlyProcessingMinutes}, 0) >= 0 and ${t.absenceDaysPerPlayer} >= 0 and ${t.absenceDaysPerGame} >= 0`),
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
    index('turns_open_deadline').on(t.deadline).where(sql`${t.status} = 'open'`),
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
    index('inbound_pending').on(t.receivedAt).where(sql`${t.status} = 'pending'`),
    index('inbound_game').on(t.gameId, t.receivedAt),
    // The turn job looks for absence mail every pass: an index of just those rows.
    index('inbound_absence').on(t.id).where(sql`${t.outcome} = 'absence'`),
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
    index('outbox_due').on(t.nextAttemptAt, t.id).where(sql`${t.status} = 'pending'`),
    index('outbox_game').on(t.gameId, t.createdAt),
    // The reply rate limit counts one address's recent mail for every reply it sends.
    index('outbox_recipient_recent').on(t.toAddress, t.createdAt),
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
  (t) => [unique('observers_game_email').on(t.gameId, t.email), unique('observers_token').on(t.token), check('observers_email_lower', sql`${t.email} = lower(${t.email})`)],
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

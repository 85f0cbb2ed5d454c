// Every mail about a game that is not a reply to a player (edicts, notices) threads under one
// Message-ID per game, so mail clients show a game's life as one conversation.
import { bracketed } from '../db/outbox.ts';

export function gameThread(gameId: string, domain: string): string {
  return bracketed(`game.${gameId}@${domain}`);
}

// `npx drizzle-kit generate` writes SQL migrations from src/db/schema.ts into drizzle/;
// src/db/client.ts applies them at start-up on PGlite and PostgreSQL alike.
import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
});

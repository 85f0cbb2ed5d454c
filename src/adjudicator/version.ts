// The engine's version, stored with every edict. Raise it with any change that can alter an
// outcome or the edict's text; `sf turn replay` shows what the change would have altered.
export const ENGINE_VERSION = '1';

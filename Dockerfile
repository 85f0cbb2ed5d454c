# The moderator as a container: Node 24 (LTS; .ci/run tests on the same major), the TypeScript
# sources run through tsx (no build step; see README "Deployment" for why not Node's own type
# stripping yet).
FROM node:24-bookworm-slim
WORKDIR /app
ENV DATA_DIR=/data HTTP_HOST=0.0.0.0 HTTP_PORT=8080
COPY package.json package-lock.json ./
RUN npm ci --omit=dev && npm cache clean --force
COPY bin ./bin
COPY src ./src
COPY maps ./maps
COPY templates ./templates
COPY drizzle ./drizzle
COPY tsconfig.json ./
# The data directory belongs to the user the service runs as. A named volume mounted on /data
# starts as a copy of this directory, owner included; without it the service could not write
# there (a bind mount must be given to uid 1000, user "node", by hand).
RUN mkdir -p /data && chown node:node /data
VOLUME /data
EXPOSE 8080
USER node
# Healthy when the web app answers and its database does (/health: 503 while the database is
# awaited, or a loop of the service is stuck); the service stops at once
# with one line on stderr when it cannot start, so a broken start is never "healthy".
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.HTTP_PORT}/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The same node flags as `npm start` (package.json): a smaller young generation (memory, issue 7).
# SIGTERM (docker stop) reaches node directly: it finishes what it is doing and closes cleanly.
CMD ["node", "--max-semi-space-size=4", "bin/sf.js", "serve"]

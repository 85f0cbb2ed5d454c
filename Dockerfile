# The moderator as a container: Node 20, the TypeScript sources run through tsx (no build step).
FROM node:20-bookworm-slim
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
VOLUME /data
EXPOSE 8080
USER node
CMD ["node", "bin/sf.js", "serve"]

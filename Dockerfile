# Build stage: compiles better-sqlite3, builds the PWA and bundles the server (api/dist/server.mjs).
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY db/package.json db/
COPY api/package.json api/
COPY pwa/package.json pwa/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# Runtime: the same Node major, only what runs.
FROM node:20-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
EXPOSE 3000
USER node
CMD ["node", "--enable-source-maps", "--max-semi-space-size=8", "api/dist/server.mjs"]

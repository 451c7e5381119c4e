# syntax=docker/dockerfile:1
# Build stage: compiles better-sqlite3, builds the PWA (with its .br/.gz copies) and bundles the
# server into api/dist/server.mjs, then drops the development dependencies.
FROM node:20-bookworm AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY db/package.json db/
COPY api/package.json api/
COPY pwa/package.json pwa/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# Runtime: the same Node major and only what runs: the bundled server (migrations are inside it),
# the built PWA and the production dependencies. No sources, tests or benchmark results.
FROM node:20-bookworm-slim AS runtime
# tini as PID 1: forwards SIGTERM to node (graceful shutdown) and reaps zombies.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
WORKDIR /app
# The root package.json names the version the server reports; the workspaces' package.json files
# keep node_modules' links to them valid.
COPY --from=build /app/package.json ./
COPY --from=build /app/db/package.json db/
COPY --from=build /app/api/package.json api/
COPY --from=build /app/pwa/package.json pwa/
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/api/dist api/dist
COPY --from=build /app/pwa/dist pwa/dist
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
EXPOSE 3000
USER node
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# glibc's malloc arenas: see SERVER_ENV in api/src/build/server-bundle.ts.
ENV MALLOC_ARENA_MAX=2
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--enable-source-maps", "--max-semi-space-size=8", "--max-old-space-size=192", "api/dist/server.mjs"]

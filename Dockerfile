# syntax=docker/dockerfile:1
# Journey Portal: the production image.
#   docker build -t journey-portal .
#   docker run --init -p 3000:3000 -e SESSION_SECRET=… -e MONGODB_URI=… journey-portal
# docker-compose.yml runs the whole deployment in small (load balancer, two web replicas, a worker, MongoDB, MinIO).
# test/e2e/deploy-commands.e2e.ts runs this file's CMD, HEALTHCHECK and CLI lines against the production build,
# so a broken entry fails `npm test` even where no Docker engine is at hand.

# 1. Every dependency, for the build.
FROM node:22-bookworm-slim AS deps
WORKDIR /app
# The workspace's manifests too: npm ci installs the workspace packages (packages/*) with the root.
COPY package.json package-lock.json ./
COPY packages/embedded-mongo/package.json ./packages/embedded-mongo/
COPY packages/xlsx-reader/package.json ./packages/xlsx-reader/
# The root package's postinstall, which npm ci runs: it corrects React's streaming renderer and rewrites the two
# dependencies' __proto__ setters (docs/decisions.md).
COPY scripts/patch-react-dom.mjs ./scripts/
COPY scripts/patch-proto-setters.mjs ./scripts/
RUN npm ci --no-audit --no-fund

# 2. The build: Remix (build/client, build/server) and the bundled host, worker and CLI (build/host).
FROM deps AS build
COPY . .
RUN npm run build

# 3. Production dependencies only, installed afresh (no dev dependency left behind).
FROM node:22-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/embedded-mongo/package.json ./packages/embedded-mongo/
COPY packages/xlsx-reader/package.json ./packages/xlsx-reader/
COPY scripts/patch-react-dom.mjs ./scripts/
COPY scripts/patch-proto-setters.mjs ./scripts/
# The workspace packages are bundled into build/ (build/host/embedded-mongo.js, the XLSX reader inside the host's and
# the Remix server's bundles, its worker build/host/xlsx-reader-worker.js): their links are not needed at run time.
RUN npm ci --omit=dev --no-audit --no-fund && rm -f node_modules/embedded-mongo node_modules/xlsx-reader

# 4. The runtime image.
FROM node:22-bookworm-slim AS runtime
# Every node process of the image (web, worker, CLI, the embedded database) refuses `__proto__` (docs/decisions.md).
ENV NODE_ENV=production \
    NODE_OPTIONS=--disable-proto=throw \
    PORT=3000 \
    DATA_DIR=/app/data \
    PORTAL_HOME=/app
WORKDIR /app
# Code and dependencies stay owned by root: the app user can read them, not change them.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/package.json ./package.json
COPY deploy/portal /usr/local/bin/portal
# No TypeScript tooling here: the npm scripts that use tsx outside the image run the bundled CLI instead.
RUN npm pkg set "scripts.db:indexes=node build/host/cli.js db:indexes" "scripts.seed=node build/host/cli.js seed" \
 && chmod 755 /usr/local/bin/portal \
 && mkdir -p /app/data \
 && chown node:node /app/data
USER node
EXPOSE 3000
# slim has no curl; Node's fetch does the probe (liveness: /healthz answers while the process serves).
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# npm forwards SIGTERM to its child, and the start script `exec`s node, so the signal reaches the host
# (which drains and exits 0) with no shell in between. Run with an init as PID 1 to also reap
# orphans: `docker run --init`, or `init: true` as docker-compose.yml does.
CMD ["npm", "start"]

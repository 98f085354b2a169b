# syntax=docker/dockerfile:1
# Journey Portal: production image. Build: docker build -t journey-portal .
# (Written for Docker; not run on the machines this project was built on, which have no Docker engine.)

# 1. All dependencies, for the build.
FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund

# 2. The build: Remix (build/client, build/server) and the bundled host (build/host).
FROM deps AS build
COPY . .
RUN npm run build

# 3. Production dependencies only.
FROM deps AS prod-deps
RUN npm prune --omit=dev --no-audit --no-fund

# 4. The runtime image.
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/data
WORKDIR /app
# Code and dependencies stay owned by root: the app user can read them, not change them.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY --from=build /app/package.json ./package.json
# No TypeScript tooling here: the one-off index command runs its bundled copy.
RUN npm pkg set "scripts.db:indexes=node build/host/db-indexes.js" \
 && mkdir -p /app/data \
 && chown node:node /app/data
USER node
EXPOSE 3000
# slim has no curl; Node's fetch does the probe.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# npm forwards SIGTERM to its child, and the start script `exec`s node, so the signal reaches the host
# (which drains and exits 0) with no shell in between. Run with an init as PID 1 to also reap
# orphans: `docker run --init`, or `init: true` as docker-compose.yml does.
CMD ["npm", "start"]

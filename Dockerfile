# syntax=docker/dockerfile:1
# Pluckers: one image for every instance (README, "Deploying").
#   docker build -t pluckers .
#   docker run -e DATABASE_URL=... -e JWT_SECRET=... -e PUBLIC_URL=... -p 3000:3000 pluckers
ARG NODE_IMAGE=node:20-bookworm-slim

# Production dependencies only (native ones, argon2 and sharp, come prebuilt for this libc).
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

# The web app, built and pre-compressed, and the server bundled into plain JavaScript, both with
# the dev dependencies (Vite, esbuild), which stay here.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data \
    WEB_DIST=/app/dist/web
WORKDIR /app
# The built server (scripts/build-server.ts) reads the SQL it applies from beside its sources.
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY src/server/db/migrations ./src/server/db/migrations
COPY src/server/db/functions ./src/server/db/functions
COPY --from=build /app/dist/server ./dist/server
COPY --from=build /app/dist/web ./dist/web
# Owned by root and read-only to the server; only DATA_DIR is writable.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
# Liveness only (the process answers): readiness is the balancer's business (/api/health/ready),
# and a database outage must not make Docker restart every instance.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/live').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM starts the graceful shutdown (SHUTDOWN_DELAY_MS, then drain); give it time to finish
# (docker stop -t, compose stop_grace_period) before SIGKILL.
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "dist/server/main.js"]

# The instance image: the same `npm ci && npm start` as on a workstation, against an external Postgres.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY domain/package.json domain/
COPY services/package.json services/
COPY projections/package.json projections/
COPY adapters/package.json adapters/
COPY infra/package.json infra/
COPY test/package.json test/
RUN npm ci --omit=dev --ignore-scripts=false && npm cache clean --force
COPY . .
USER node
EXPOSE 3000
CMD ["node", "infra/bin/tributary.js", "start"]

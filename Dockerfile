# The instance image: the same `npm ci && npm start` as on a workstation, against an external Postgres.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
# A container is reached through its network, not its loopback. With no operator yet, the first start
# prints a setup code the first sign-up must give; or `tributary admin create-operator` (docs/operations.md).
ENV HOST=0.0.0.0
# The sources before `npm ci`: its `prepare` script builds the command (infra/dist) from them.
COPY . .
RUN npm ci --omit=dev --ignore-scripts=false && npm cache clean --force
# The data folder (signing key; compose mounts a named volume here): owned by the user the instance runs
# as. A new named volume takes the ownership of the image's folder; without it, it would be root's and
# the first start could not write the key.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
CMD ["node", "infra/bin/tributary.js", "start"]

// As in Medusa's starters: each test file starts with a clean MikroORM metadata registry.
const { MetadataStorage } = require("@medusajs/framework/mikro-orm/core")
MetadataStorage.clear()

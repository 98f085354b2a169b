/**
 * The embedded server's commands, one module per family (commands/*.ts), dispatched by CommandRunner: unknown
 * commands answer CommandNotFound, as mongod does.
 */
import { catalogCommands } from "./commands/catalog";
import { readCommands } from "./commands/read";
import { serverCommands } from "./commands/server";
import { writeCommands } from "./commands/write";
import { CommandCore } from "./runner";
import type { Catalog } from "./storage/catalog";

const HANDLERS = { ...serverCommands, ...catalogCommands, ...readCommands, ...writeCommands };

export class CommandRunner extends CommandCore {
  constructor(catalog: Catalog) {
    super(catalog, HANDLERS);
  }
}

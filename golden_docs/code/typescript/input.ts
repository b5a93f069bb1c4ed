import { EventEmitter } from "events";
import type { Logger } from "./logger";
import { unusedHelper } from "./unused";

export interface Repository<T> {
  get(id: string): Promise<T | undefined>;
  put(item: T): Promise<void>;
}

export type UserId = string;

export class MemoryRepository<T extends { id: UserId }> extends EventEmitter implements Repository<T> {
  private items = new Map<UserId, T>();

  constructor(private readonly log: Logger) {
    super();
  }

  async get(id: UserId): Promise<T | undefined> {
    return this.items.get(id);
  }

  async put(item: T): Promise<void> {
    this.items.set(item.id, item);
    this.log.info(`stored ${item.id}`);
    this.emit("put", item);
  }
}

export function byId<T extends { id: UserId }>(items: T[]): Map<UserId, T> {
  return new Map(items.map((item) => [item.id, item]));
}

enum Status {
  Active,
  Suspended,
}

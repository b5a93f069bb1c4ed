import { readFile } from "node:fs/promises";
import path from "node:path";
import os from "node:os";

const DEFAULT_LIMIT = 50;

/**
 * Loads invoices from disk.
 */
export class InvoiceStore {
  constructor(root) {
    this.root = root;
  }

  // Reads one invoice by id.
  async get(id) {
    const file = path.join(this.root, `${id}.json`);
    return JSON.parse(await readFile(file, "utf8"));
  }

  static limit() {
    return DEFAULT_LIMIT;
  }
}

export function total(invoices) {
  const add = (sum, inv) => sum + inv.amount;
  return invoices.reduce(add, 0);
}

export const isPaid = (invoice) => invoice.paidAt !== null;

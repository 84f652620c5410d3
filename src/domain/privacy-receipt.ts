/**
 * Proof of what a privacy request did (docs/design.md, Privacy API): counts per client instance and
 * kind. It is all a completed forget request keeps besides keyed hashes, so it holds numbers only.
 */
export interface ReceiptCounts {
  reviews: number;
  clientResponses: number;
  /** Non-empty author profile values (name and identifiers) removed with the reviews. */
  profileFields: number;
  /** Sections of earlier access requests' exports removed because they held the person. */
  accessExports: number;
}

/** Counts keyed by client name. */
export type Receipt = Record<string, ReceiptCounts>;

function emptyCounts(): ReceiptCounts {
  return { reviews: 0, clientResponses: 0, profileFields: 0, accessExports: 0 };
}

/** A receipt naming every client of the request, so a client with nothing found still shows zeros. */
export function emptyReceipt(clientNames: readonly string[]): Receipt {
  return Object.fromEntries(clientNames.map((n) => [n, emptyCounts()]));
}

export function addToReceipt(receipt: Receipt, clientName: string, counts: Partial<ReceiptCounts>): Receipt {
  const current = receipt[clientName] ?? emptyCounts();
  return {
    ...receipt,
    [clientName]: {
      reviews: current.reviews + (counts.reviews ?? 0),
      clientResponses: current.clientResponses + (counts.clientResponses ?? 0),
      profileFields: current.profileFields + (counts.profileFields ?? 0),
      accessExports: current.accessExports + (counts.accessExports ?? 0),
    },
  };
}

export function parseReceipt(text: string | null): Receipt | null {
  if (text === null) return null;
  // Receipts written before accessExports was counted read as zero for it.
  const stored = JSON.parse(text) as Record<string, Partial<ReceiptCounts>>;
  return Object.fromEntries(
    Object.entries(stored).map(([name, counts]) => [name, { ...emptyCounts(), ...counts }]),
  );
}

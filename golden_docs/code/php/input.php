<?php

namespace App\Billing;

use App\Models\Invoice;
use App\Support\Money;
use Illuminate\Support\Collection;

/**
 * Sums invoices per customer.
 */
final class Ledger
{
    private array $entries = [];

    public function __construct(private Money $zero) {}

    #[\Deprecated]
    public function add(Invoice $invoice): void
    {
        $this->entries[$invoice->customer][] = $invoice;
    }

    public function total(string $customer): Money
    {
        $sum = $this->zero;
        foreach ($this->entries[$customer] ?? [] as $invoice) {
            $sum = $sum->plus($invoice->amount);
        }
        return $sum;
    }
}

function ledger_for(array $invoices): Ledger
{
    $ledger = new Ledger(Money::zero());
    foreach ($invoices as $invoice) {
        $ledger->add($invoice);
    }
    return $ledger;
}

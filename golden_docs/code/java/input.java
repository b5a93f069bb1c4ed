package billing;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Keeps invoices in memory. */
public class InvoiceRepository<T extends Invoice> {
    private final List<T> invoices = new ArrayList<>();

    public InvoiceRepository() {}

    @Override
    public String toString() {
        return "InvoiceRepository(" + invoices.size() + ")";
    }

    /** Finds an invoice by number. */
    public Optional<T> find(String number) {
        return invoices.stream().filter(i -> i.number().equals(number)).findFirst();
    }

    public void add(T invoice) {
        invoices.add(invoice);
    }
}

interface Invoice {
    String number();
}

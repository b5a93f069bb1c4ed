using System;
using System.Collections.Generic;
using System.Linq;

namespace Billing
{
    /// <summary>Stores invoices by number.</summary>
    public class InvoiceBook<T> where T : IInvoice
    {
        private readonly Dictionary<string, T> byNumber = new();

        public InvoiceBook() { }

        [Obsolete("Use TryFind")]
        public T Find(string number) => byNumber[number];

        public bool TryFind(string number, out T invoice)
        {
            return byNumber.TryGetValue(number, out invoice);
        }

        public decimal Total() => byNumber.Values.Sum(i => i.Amount);
    }

    public interface IInvoice
    {
        string Number { get; }
        decimal Amount { get; }
    }
}

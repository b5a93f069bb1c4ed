package billing

import java.math.BigDecimal
import java.time.LocalDate
import kotlin.collections.ArrayDeque

/** A queue of invoices waiting to be sent. */
class Outbox<T : Invoice>(private val capacity: Int) {
    private val queue = ArrayDeque<T>()

    fun offer(invoice: T): Boolean {
        if (queue.size >= capacity) {
            return false
        }
        queue.addLast(invoice)
        return true
    }

    fun drain(): List<T> {
        val out = queue.toList()
        queue.clear()
        return out
    }
}

interface Invoice {
    val amount: BigDecimal
}

fun overdue(due: LocalDate, today: LocalDate): Boolean {
    fun grace() = 3L
    return today.isAfter(due.plusDays(grace()))
}

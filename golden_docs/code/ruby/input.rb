require "json"
require "time"
require_relative "money"

module Billing
  # An invoice with its line items.
  class Invoice
    attr_reader :number, :lines

    def initialize(number, lines = [])
      @number = number
      @lines = lines
    end

    def total
      lines.sum { |line| line[:amount] }
    end

    def to_json(*args)
      { number: number, total: total }.to_json(*args)
    end

    def self.parse(raw)
      data = JSON.parse(raw)
      new(data["number"], data["lines"])
    end
  end
end

def format_due(date)
  Time.parse(date).strftime("%d %b %Y")
end

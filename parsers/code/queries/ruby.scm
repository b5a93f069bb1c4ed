(class name: (_) @name) @unit.class
(module name: (_) @name) @unit.class
(method name: (_) @name) @unit.function
(singleton_method name: (_) @name) @unit.function
((call method: (identifier) @_require) @import (#match? @_require "^(require|require_relative|load)$"))
(program (assignment left: (constant) @name) @constant)

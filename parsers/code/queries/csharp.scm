(class_declaration name: (identifier) @name) @unit.class
(interface_declaration name: (identifier) @name) @unit.class
(struct_declaration name: (identifier) @name) @unit.class
(record_declaration name: (identifier) @name) @unit.class
(enum_declaration name: (identifier) @name) @unit.class
(namespace_declaration name: (_) @name) @unit.class
(method_declaration name: (identifier) @name) @unit.method
(constructor_declaration name: (identifier) @name) @unit.method
(property_declaration name: (identifier) @name) @unit.method
(using_directive) @import

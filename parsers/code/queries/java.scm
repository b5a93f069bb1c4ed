(class_declaration name: (identifier) @name) @unit.class
(interface_declaration name: (identifier) @name) @unit.class
(enum_declaration name: (identifier) @name) @unit.class
(record_declaration name: (identifier) @name) @unit.class
(annotation_type_declaration name: (identifier) @name) @unit.class
(method_declaration name: (identifier) @name) @unit.method
(constructor_declaration name: (identifier) @name) @unit.method
(import_declaration) @import

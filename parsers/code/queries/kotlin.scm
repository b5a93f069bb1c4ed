(class_declaration (type_identifier) @name) @unit.class
(object_declaration (type_identifier) @name) @unit.class
(function_declaration (simple_identifier) @name) @unit.function
(import_header) @import
(source_file (property_declaration (variable_declaration (simple_identifier) @name)) @constant)

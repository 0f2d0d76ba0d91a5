typedef int ancsdb_placeholder_db;

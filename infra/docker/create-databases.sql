CREATE DATABASE tributary_global;
CREATE DATABASE tributary_sovereign;

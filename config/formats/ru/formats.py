"""Russian dates and numbers: 1 декабря 2026, 1 декабря 2026, 14:05; 5,5; 12 345."""

DATE_FORMAT = "j E Y"
DATETIME_FORMAT = "j E Y, H:i"
SHORT_DATE_FORMAT = "d.m.Y"
SHORT_DATETIME_FORMAT = "d.m.Y H:i"
MONTH_DAY_FORMAT = "j E"
TIME_FORMAT = "H:i"
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "\xa0"  # a no-break space
NUMBER_GROUPING = 3

#include <linux/i2c-dev.h>
#include <linux/i2c.h>
#include <i2c/smbus.h>
